import { GetCommand } from '@aws-sdk/lib-dynamodb';
import Big from 'big.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../shared/domain/clock.js';
import { ApiError } from '../../shared/domain/errors.js';
import { newId } from '../../shared/domain/ids.js';
import { periodKeyOf } from '../../shared/domain/ledger/hot/hot-types.js';
import { createLedgerService, type LedgerService } from '../../shared/domain/ledger/ledger-service.js';
import {
  movementPosting,
  SYSTEM_ACCOUNTS,
  systemAccount,
  transferLegs,
  walletAccount,
} from '../../shared/domain/ledger/posting.js';
import { periodKeyOf as calendarKeyOf } from '../../shared/domain/policies/policy-rules.js';
import { newWallet } from '../../shared/domain/wallets/wallet-rules.js';
import { readBig, readInt } from '../../shared/persistence/client.js';
import { hotKeys } from '../../shared/persistence/entities/hot-wallet.js';
import { transactionKeys } from '../../shared/persistence/entities/transaction.js';
import { walletKeys } from '../../shared/persistence/entities/wallet.js';
import { createHotRouting } from '../../shared/persistence/hot/hot-cache.js';
import { exactAvailable } from '../../shared/persistence/hot/hot-slow-path.js';
import { createLedgerStore } from '../../shared/persistence/ledger-store.js';
import type { TableContext } from '../../shared/persistence/table-context.js';
import { fundLaneForTest, promoteForTest, testHotReads } from '../fixtures/hot-wallet.js';
import { createTestTable } from '../fixtures/table.js';

/**
 * Debits of a hot wallet against DynamoDB Local: escrowed lanes, the exact slow path, holds on
 * main, reversals, hot to hot, period limits as quota and the policy version (docs/architecture.md
 * "Hot wallets"). Wallets are made hot and lanes funded by the test fixture (keeper-like moves).
 */
const scope = { organizationId: 'org_hot_debits', environment: 'SANDBOX' as const };

describe('hot wallets: debits from lanes, the slow path, holds', () => {
  let base: Awaited<ReturnType<typeof createTestTable>>;
  let table: TableContext;
  let ledger: LedgerService;

  beforeAll(async () => {
    base = await createTestTable();
    const plain: TableContext = { client: base.client, tableName: base.tableName };
    table = { ...plain, hot: createHotRouting() };
    ledger = createLedgerService({ store: createLedgerStore(table), clock: systemClock, ids: newId });
  });

  async function wallet(amount: string): Promise<string> {
    const id = newId('wallet');
    await base.store.commit([
      {
        type: 'createWallet',
        wallet: newWallet({
          id,
          ...scope,
          name: id,
          walletType: 'ORG',
          isMain: false,
          createdAt: new Date().toISOString(),
        }),
      },
    ]);
    if (new Big(amount).gt(0))
      await ledger.post(scope, {
        from: systemAccount(SYSTEM_ACCOUNTS.sandboxFunding),
        to: walletAccount(id),
        amount: new Big(amount),
        type: 'FUNDING',
      });
    return id;
  }

  /** A hot wallet with `main` left on main and `lanes` funded as given. */
  async function hotWallet(main: string, lanes: string[], partitions = 2): Promise<string> {
    const total = lanes.reduce((sum, lane) => sum.plus(lane), new Big(main));
    const id = await wallet(total.toFixed(2));
    await promoteForTest(table, id, { partitions, lanes: lanes.length });
    for (const [lane, amount] of lanes.entries())
      if (new Big(amount).gt(0)) await fundLaneForTest(table, id, lane, new Big(amount));
    return id;
  }

  const get = async (key: { PK: string; SK: string }) =>
    (await base.client.send(new GetCommand({ TableName: base.tableName, Key: key, ConsistentRead: true }))).Item!;
  const money = (value: unknown) => (value === undefined ? '0.00' : readBig(value).toFixed(2));
  const parts = async (walletId: string) => (await testHotReads(table).readHotWallet(walletId))!;
  const exact = async (walletId: string) => exactAvailable(await parts(walletId)).toFixed(2);
  const pay = (from: string, to: string, amount: string) =>
    ledger.post(scope, { from: walletAccount(from), to: walletAccount(to), amount: new Big(amount) });
  const codeOf = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    return error instanceof ApiError ? error.code : error;
  };

  it('takes a debit from one lane: the lane escrows it, main is untouched, the record names the lane', async () => {
    const payer = await hotWallet('1', ['10', '10']);
    const payee = await wallet('0');
    const record = await pay(payer, payee, '4');
    const lane = readInt((await get(transactionKeys.primary(record.id))).debitLane);
    expect(money((await get(hotKeys.lane(payer, lane))).available)).toBe('6.00');
    expect(money((await get(walletKeys.primary(payer))).balance)).toBe('1.00');
    expect(money((await get(walletKeys.primary(payee))).balance)).toBe('4.00');
    expect(await exact(payer)).toBe('17.00');
  });

  it('tries two more lanes, then pays from main and several lanes in one transaction (exact, no false refusal)', async () => {
    const payer = await hotWallet('5', ['1', '1', '1']);
    const payee = await wallet('0');
    const record = await pay(payer, payee, '7');
    expect((await get(transactionKeys.primary(record.id))).debitLane).toBeUndefined();
    expect(await exact(payer)).toBe('1.00');
    expect(money((await get(walletKeys.primary(payer))).balance)).toBe('0.00');
    expect(money((await get(walletKeys.primary(payee))).balance)).toBe('7.00');
    // Exactly what is left: 1.00 pays, 0.01 more is INSUFFICIENT_FUNDS with the exact balance.
    const refused = await pay(payer, payee, '1.01').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).code).toBe('INSUFFICIENT_FUNDS');
    expect((refused as ApiError).details).toMatchObject({ balance: '1.00000000', requested: '1.01' });
    await pay(payer, payee, '1');
    expect(await exact(payer)).toBe('0.00');
  });

  it('folds unfolded credits inline when only they make the difference', async () => {
    const payer = await hotWallet('0', ['2', '2']);
    const funder = await wallet('20');
    const payee = await wallet('0');
    await pay(funder, payer, '5');
    expect(money((await get(walletKeys.primary(payer))).balance)).toBe('0.00');
    expect(await exact(payer)).toBe('9.00');
    await pay(payer, payee, '8');
    expect(await exact(payer)).toBe('1.00');
    const after = await parts(payer);
    expect(after.partitions.every((partition) => partition.inbox.length === 0)).toBe(true);
    expect(await codeOf(pay(payer, payee, '1.5'))).toBe('INSUFFICIENT_FUNDS');
  });

  it('pays hot to hot: a lane of the payer, the inbox of the payee', async () => {
    const payer = await hotWallet('0', ['5', '5']);
    const payee = await hotWallet('0', ['0']);
    const record = await pay(payer, payee, '3');
    const stored = await get(transactionKeys.primary(record.id));
    expect(stored.debitLane).toBeDefined();
    expect(stored.creditPartition).toBeDefined();
    expect(await exact(payer)).toBe('7.00');
    expect(await exact(payee)).toBe('3.00');
  });

  it('holds from a lane with the held bucket on main; capture and void settle on main', async () => {
    const walletId = await hotWallet('0', ['10', '10']);
    const payee = await wallet('0');
    const hold = await ledger.hold(scope, { walletId, amount: new Big('6') });
    expect(money((await get(walletKeys.primary(walletId))).heldBalance)).toBe('6.00');
    expect(await exact(walletId)).toBe('14.00');
    await ledger.capture(scope, hold.id, { to: walletAccount(payee), amount: new Big('4') });
    const main = await get(walletKeys.primary(walletId));
    expect(money(main.heldBalance)).toBe('0.00');
    expect(money(main.balance)).toBe('2.00');
    expect(await exact(walletId)).toBe('16.00');
    const second = await ledger.hold(scope, { walletId, amount: new Big('5') });
    await ledger.void(scope, second.id);
    expect(money((await get(walletKeys.primary(walletId))).heldBalance)).toBe('0.00');
    expect(await exact(walletId)).toBe('16.00');
    expect(money((await get(walletKeys.primary(payee))).balance)).toBe('4.00');
  });

  it('reverses a payment into a hot payee: the mirror legs are routed like any posting', async () => {
    const payer = await wallet('10');
    const payee = await hotWallet('0', ['0', '0']);
    const record = await pay(payer, payee, '4');
    expect(await exact(payee)).toBe('4.00');
    // The credit sits in the inbox, the lanes are empty: the reversal folds it inline on the slow path.
    await ledger.reverse(scope, record.id);
    expect(await exact(payee)).toBe('0.00');
    expect(money((await get(walletKeys.primary(payer))).balance)).toBe('10.00');
  });

  describe('period limits as escrowed quota', () => {
    const limit = new Big('10');
    const now = new Date();
    const key = periodKeyOf('DAY', calendarKeyOf('DAY', now));

    function limitedPayment(from: string, to: string, amount: string, policyVersion = 0) {
      const value = new Big(amount);
      return createLedgerStore(table).commit([
        movementPosting(
          scope,
          newId('transaction'),
          'PAYMENT',
          transferLegs(walletAccount(from), walletAccount(to), value),
          now.toISOString(),
          { from, to, amount: value.toFixed(2) },
          {
            spend: {
              walletId: from,
              amount: value,
              periods: [{ period: 'DAY', periodKey: calendarKeyOf('DAY', now), limit }],
              stale: [],
              policyVersion,
            },
          },
        ),
      ]);
    }

    it('takes quota with the funds from a lane, then from ungranted and lanes on the slow path; POLICY_DENIED only when all of it is short', async () => {
      const payer = await wallet('50');
      const payee = await wallet('0');
      await promoteForTest(table, payer, { partitions: 1, lanes: 2 });
      await fundLaneForTest(table, payer, 0, new Big('20'), { key, amount: new Big('3'), limit });
      await fundLaneForTest(table, payer, 1, new Big('20'), { key, amount: new Big('3'), limit });
      const spentNow = async () => {
        const p = await parts(payer);
        return p.lanes
          .reduce((sum, lane) => sum.plus(lane.spend[key] ?? 0), p.main.spend[key] ?? new Big(0))
          .toFixed(2);
      };
      await limitedPayment(payer, payee, '2');
      expect(await spentNow()).toBe('2.00');
      // 5 > any lane's quota: the slow path takes ungranted (4) and a lane's quota.
      await limitedPayment(payer, payee, '5');
      expect(await spentNow()).toBe('7.00');
      expect(await codeOf(limitedPayment(payer, payee, '3.01'))).toBe('POLICY_DENIED');
      await limitedPayment(payer, payee, '3');
      expect(await spentNow()).toBe('10.00');
      expect(await codeOf(limitedPayment(payer, payee, '0.01'))).toBe('POLICY_DENIED');
      const p = await parts(payer);
      const quota = p.lanes.reduce((sum, lane) => sum.plus(lane.quota[key] ?? 0), new Big(0));
      // The escrow equation: ungranted + Σ quota + Σ spend = the limit.
      expect(
        p.main.ungranted[key]!.plus(quota)
          .plus(await spentNow())
          .toFixed(2),
      ).toBe('10.00');
    });

    it('bumps policyVersion on a policy write; lanes of the old version refuse a limited debit, which the slow path pays exactly', async () => {
      const payer = await wallet('30');
      const payee = await wallet('0');
      await promoteForTest(table, payer, { partitions: 1, lanes: 1 });
      await fundLaneForTest(table, payer, 0, new Big('20'), { key, amount: new Big('5'), limit });
      const at = new Date().toISOString();
      await base.store.commit([
        {
          type: 'putPolicy',
          isNew: true,
          policy: {
            id: newId('policy'),
            walletId: payer,
            ...scope,
            name: 'daily',
            maxTransactionAmount: new Big('100'),
            requireHumanApproval: false,
            dailyLimit: limit,
            status: 'ACTIVE',
            createdAt: at,
            updatedAt: at,
          },
        },
      ]);
      expect(readInt((await get(walletKeys.primary(payer))).policyVersion)).toBe(1);
      await limitedPayment(payer, payee, '4', 1);
      const p = await parts(payer);
      // The lane (version 0) took no quota; while its re-sync is due main's ungranted is the new limit less
      // the spend (10 − 4, not the old 5 − 4), and the funds came from main and the lane as the read found them.
      expect(p.lanes[0]!.quota[key]!.toFixed(2)).toBe('5.00');
      expect(p.main.ungranted[key]!.toFixed(2)).toBe('6.00');
      expect(exactAvailable(p).toFixed(2)).toBe('26.00');
    });
  });
});
