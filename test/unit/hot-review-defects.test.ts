import { GetCommand } from '@aws-sdk/lib-dynamodb';
import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../shared/domain/clock.js';
import { createLedgerService } from '../../shared/domain/ledger/ledger-service.js';
import { SYSTEM_ACCOUNTS, systemAccount, walletAccount } from '../../shared/domain/ledger/posting.js';
import { newWallet } from '../../shared/domain/wallets/wallet-rules.js';
import { walletKeys } from '../../shared/persistence/entities/wallet.js';
import { createCommitter } from '../../shared/persistence/change-writer.js';
import { readHotWallet } from '../../shared/persistence/hot/hot-read.js';
import { runKeeperOnce } from '../../shared/persistence/hot/keeper.js';
import { promote } from '../../shared/persistence/hot/promote.js';
import { createLedgerStore } from '../../shared/persistence/ledger-store.js';
import { WRITERS } from '../../shared/persistence/writers/index.js';
import { createMemoryDynamo } from '../fakes/memory-dynamo/index.js';

/**
 * Defects the adversarial review of issue 25 found (reported in /work/wt/notes/status-25.md), each
 * as its smallest failing case over memory-dynamo. `it.fails` while the defect stands.
 */
describe('hot wallets: authority (review)', () => {
  async function hotPayer() {
    const memory = createMemoryDynamo({ tables: ['review'] });
    const table = { client: memory.client, tableName: 'review' };
    const scope = { organizationId: 'org_review', environment: 'SANDBOX' as const };
    const at = '2026-11-28T10:00:00.000Z';
    const clock = fixedClock(new Date(at));
    const [payer, payee] = ['wal_reviewpayer', 'wal_reviewpayee'];
    const commit = createCommitter(table, WRITERS).commit;
    await commit(
      [payer, payee].map((id) => ({
        type: 'createWallet' as const,
        wallet: newWallet({ id, ...scope, name: id, walletType: 'ORG', isMain: false, createdAt: at }),
      })),
    );
    let n = 0;
    const ledger = createLedgerService({ store: createLedgerStore(table), clock, ids: () => `txn_review${++n}` });
    await ledger.post(scope, {
      from: systemAccount(SYSTEM_ACCOUNTS.sandboxFunding),
      to: walletAccount(payer),
      amount: new Big('100'),
      type: 'FUNDING',
    });
    await promote(table, payer, { partitions: 2, lanes: 2 }, clock);
    await runKeeperOnce(table, payer, clock);
    const parts = await readHotWallet(table, payer);
    // The keeper funded the lanes: a debit takes the fast path (one lane, main untouched).
    expect(parts!.lanes.some((lane) => lane.available.gt(0))).toBe(true);
    return { table, scope, ledger, commit, payer, payee };
  }

  // DEFECT: pausing an agent (agent-lifecycle setStatus -> updateWallet {status: FROZEN}) writes
  // only the wallet's main item; a hot wallet's lanes stay ACTIVE until the next keeper run (up to a
  // minute in AWS, never if the keeper fails), and the lane debit's only status condition is the
  // lane's own: the paused agent keeps paying. A cold wallet answers WALLET_FROZEN at once.
  it('a frozen (paused) hot wallet pays nothing: WALLET_FROZEN, as a cold one', async () => {
    const { table, scope, ledger, commit, payer, payee } = await hotPayer();
    await commit([{ type: 'updateWallet', walletId: payer, trigger: 'freeze', set: { status: 'FROZEN' } }]);
    await expect(
      ledger.post(scope, { from: walletAccount(payer), to: walletAccount(payee), amount: new Big('1') }),
    ).rejects.toMatchObject({ code: 'WALLET_FROZEN' });
    // Unfrozen, it pays again (from a lane), and the keeper's exact read agrees with the money.
    await commit([{ type: 'updateWallet', walletId: payer, trigger: 'unfreeze', set: { status: 'ACTIVE' } }]);
    await ledger.post(scope, { from: walletAccount(payer), to: walletAccount(payee), amount: new Big('1') });
    const parts = await readHotWallet(table, payer);
    expect(parts!.lanes.every((lane) => lane.status === 'ACTIVE')).toBe(true);
  });

  // DEFECT (fixed: a close on a hot route is prepared and closes, hot/hot-close.ts): deleting an agent whose wallet is hot. The sweep posting's close
  // leg is routed to main (hot-routing.ts planHotWallet) and hotMainUpdate ignores `close` (its
  // expectedBalance and `set`): when the exact balance is all on main (just promoted, lanes not
  // funded yet), the sweep posts and the answer is a success, but the wallet is never closed (no
  // deletedAt, still ACTIVE and hot: it keeps receiving payments although its agent is "deleted").
  it('an agent deletion that sweeps a hot wallet closes it (deletedAt), or is refused', async () => {
    const { table, scope, commit, payer: agent, payee: main } = await hotPayerOnMain();
    const at = '2026-11-28T10:01:00.000Z';
    const outcome = await commit([
      {
        type: 'posting',
        posting: {
          transactionId: 'txn_reviewsweep',
          type: 'SWEEP',
          ...scope,
          currency: 'USD',
          legs: [
            {
              account: walletAccount(agent),
              amount: new Big('-100'),
              close: { expectedBalance: new Big('100'), set: { status: 'FROZEN', deletedAt: at } },
            },
            { account: walletAccount(main), amount: new Big('100') },
          ],
          createdAt: at,
          attributes: { from: agent, to: main, amount: '100.00', fee: '0.00', status: 'POSTED', postedAt: at },
          record: 'create',
        },
      },
    ]).then(
      () => 'posted',
      () => 'refused',
    );
    const item = (
      await table.client.send(new GetCommand({ TableName: table.tableName, Key: walletKeys.primary(agent) }))
    ).Item!;
    // Closing a hot wallet works now (hot/hot-close.ts): the sweep posts and the wallet is closed.
    expect(outcome).toBe('posted');
    expect(item).toMatchObject({ status: 'FROZEN', deletedAt: at });
  });

  /** A hot wallet with all its money on main (promoted, no keeper run yet). */
  async function hotPayerOnMain() {
    const memory = createMemoryDynamo({ tables: ['review2'] });
    const table = { client: memory.client, tableName: 'review2' };
    const scope = { organizationId: 'org_review', environment: 'SANDBOX' as const };
    const at = '2026-11-28T10:00:00.000Z';
    const clock = fixedClock(new Date(at));
    const [payer, payee] = ['wal_reviewagent', 'wal_reviewmain'];
    const commit = createCommitter(table, WRITERS).commit;
    await commit(
      [payer, payee].map((id) => ({
        type: 'createWallet' as const,
        wallet: newWallet({ id, ...scope, name: id, walletType: 'ORG', isMain: false, createdAt: at }),
      })),
    );
    const ledger = createLedgerService({ store: createLedgerStore(table), clock, ids: () => 'txn_reviewfund' });
    await ledger.post(scope, {
      from: systemAccount(SYSTEM_ACCOUNTS.sandboxFunding),
      to: walletAccount(payer),
      amount: new Big('100'),
      type: 'FUNDING',
    });
    await promote(table, payer, { partitions: 2, lanes: 2 }, clock);
    return { table, scope, commit, payer, payee };
  }
});
