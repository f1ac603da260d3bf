import Big from 'big.js';
import { AUDIT } from '../../shared/domain/audit/actions.js';
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../shared/domain/clock.js';
import { newId } from '../../shared/domain/ids.js';
import { createLedgerService } from '../../shared/domain/ledger/ledger-service.js';
import { systemAccount, walletAccount } from '../../shared/domain/ledger/posting.js';
import { paymentPosting } from '../../shared/domain/payments/payment-posting.js';
import { spendOf } from '../../shared/domain/policies/spend.js';
import { periodKeyOf } from '../../shared/domain/policies/policy-rules.js';
import type { PeriodLimitCheck } from '../../shared/domain/policies/policy-types.js';
import type { Transaction } from '../../shared/domain/types.js';
import { newWallet } from '../../shared/domain/wallets/wallet-rules.js';
import { createLedgerStore } from '../../shared/persistence/ledger-store.js';
import { createWalletSnapshotReader } from '../../shared/persistence/wallet-store.js';
import { createTestTable } from '../fixtures/table.js';

describe('period limits across UTC midnight', () => {
  it('refuses an old-day payment that commits after the first payment of the new day when it would exceed the old day limit', async () => {
    const table = await createTestTable();
    const scope = { organizationId: newId('organization'), environment: 'SANDBOX' as const };
    const [payer, payee] = [newId('wallet'), newId('wallet')];
    const at0 = new Date('2026-11-22T23:59:59.000Z');
    await table.store.commit(
      [payer, payee].map((id) => ({
        type: 'createWallet' as const,
        wallet: newWallet({ id, ...scope, name: id, walletType: 'ORG', isMain: false, createdAt: at0.toISOString() }),
      })),
    );
    const ledger = createLedgerService({ store: createLedgerStore(table), clock: fixedClock(at0), ids: newId });
    await ledger.post(scope, {
      from: systemAccount('acc_SANDBOX_FUNDING'),
      to: walletAccount(payer),
      amount: new Big(1000),
      type: 'FUNDING',
    });
    const snapshots = createWalletSnapshotReader(table);
    const limit = new Big(100);
    const limitsAt = (at: Date, amount: Big): PeriodLimitCheck[] => [
      { walletId: payer, period: 'DAY', periodKey: periodKeyOf('DAY', at), limit, amount, expiresAtEpochS: 0 },
    ];
    const pay = (at: Date, amount: Big, counters: Awaited<ReturnType<typeof snapshots.getWalletSnapshot>>) => {
      const t: Transaction = {
        id: newId('transaction'),
        type: 'PAYMENT',
        ...scope,
        from: payer,
        to: payee,
        payeeOrganizationId: scope.organizationId,
        amount: amount.toFixed(2),
        fee: '0.00',
        currency: 'USD',
        status: 'POSTED',
        createdAt: at.toISOString(),
        postedAt: at.toISOString(),
        requestedByKeyId: 'key_x',
      } as Transaction;
      return table.store.commit([
        paymentPosting({
          transaction: t,
          record: 'create',
          actor: { actorType: 'API_KEY', actorId: 'key_x', ipAddress: '1.1.1.1' },
          auditAction: AUDIT.payment.create,
          spend: spendOf(payer, amount, at, limitsAt(at, amount), counters!.counters),
        }),
      ]);
    };
    const oldDay = new Date('2026-11-22T23:59:59.900Z');
    const newDay = new Date('2026-11-23T00:00:00.100Z');
    // P1 (100, old day) read its snapshot first: nothing spent yet, so the policy pre-check passes.
    const p1Snapshot = await snapshots.getWalletSnapshot(payer);
    // P0 (95, old day) posts meanwhile.
    await pay(oldDay, new Big(95), await snapshots.getWalletSnapshot(payer));
    // P2 (1, new day) posts and drops the old day's counter as stale.
    await pay(newDay, new Big(1), await snapshots.getWalletSnapshot(payer));
    // P1 commits: 95 + 100 = 195 on a day limited to 100. It should be refused (POLICY_DENIED).
    await expect(pay(oldDay, new Big(100), p1Snapshot)).rejects.toMatchObject({ code: 'POLICY_DENIED' });
  });
});
