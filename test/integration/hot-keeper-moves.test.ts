import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import Big from 'big.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixedClock, systemClock } from '../../shared/domain/clock.js';
import { newId } from '../../shared/domain/ids.js';
import { createLedgerService } from '../../shared/domain/ledger/ledger-service.js';
import { SYSTEM_ACCOUNTS, systemAccount } from '../../shared/domain/ledger/posting.js';
import { exactBalances, hotInvariants, periodLimitsAt } from '../../shared/domain/ledger/hot/hot-balances.js';
import { toNumberAttribute } from '../../shared/persistence/client.js';
import { hotKeys } from '../../shared/persistence/entities/hot-wallet.js';
import { walletKeys } from '../../shared/persistence/entities/wallet.js';
import { foldPartition } from '../../shared/persistence/hot/fold-moves.js';
import { readExactWallet, readHotWallet } from '../../shared/persistence/hot/hot-read.js';
import { createHotRouting } from '../../shared/persistence/hot/hot-cache.js';
import { demote, keeperReads, runKeeperOnce, setHotWalletStatus } from '../../shared/persistence/hot/keeper.js';
import { promote } from '../../shared/persistence/hot/promote.js';
import { checkLedger } from '../../shared/persistence/ledger-check.js';
import { createLedgerStore } from '../../shared/persistence/ledger-store.js';
import { createWalletSnapshotReader, createWalletStore } from '../../shared/persistence/wallet-store.js';
import { putInboxCredit, walletWithBalance } from '../fixtures/hot-world.js';
import { createTestTable } from '../fixtures/table.js';

/** The keeper's lane and quota moves, demotion and the straggler bounce against DynamoDB Local. */
describe('hot wallet keeper: lanes, quotas, demotion, stragglers', () => {
  let table: Awaited<ReturnType<typeof createTestTable>>;
  beforeAll(async () => {
    table = await createTestTable();
  });
  const DAY = 'DAY#2026-11-28';
  const at = new Date('2026-11-28T10:00:00Z');

  async function checked(walletId: string, clock = fixedClock(at)) {
    const parts = (await readHotWallet(table, walletId))!;
    const snapshot = await createWalletSnapshotReader(table).getWalletSnapshot(walletId);
    expect(hotInvariants(parts, periodLimitsAt(snapshot!.policies, clock.now()))).toEqual([]);
    return parts;
  }

  async function withDailyLimit(walletId: string, organizationId: string, limit: string, version = 1, isNew = true) {
    const now = at.toISOString();
    const policy = {
      id: `policy_${walletId}`,
      walletId,
      organizationId,
      environment: 'SANDBOX' as const,
      name: 'daily',
      maxTransactionAmount: new Big(1000),
      requireHumanApproval: false,
      dailyLimit: new Big(limit),
      status: 'ACTIVE' as const,
      createdAt: now,
      updatedAt: now,
      version,
    };
    await table.store.commit([
      isNew
        ? { type: 'putPolicy', policy, isNew: true }
        : { type: 'putPolicy', policy, isNew: false, expectedVersion: version - 1 },
    ]);
  }

  const setOnMain = (
    walletId: string,
    expression: string,
    names: Record<string, string>,
    values: Record<string, unknown>,
  ) =>
    table.client.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: walletKeys.primary(walletId),
        UpdateExpression: expression,
        ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
        ExpressionAttributeValues: values,
      }),
    );

  /** What part core's lane debit writes (escrowed funds and quota, spend counted on the lane). */
  const laneDebit = (walletId: string, lane: number, amount: string) =>
    table.client.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: hotKeys.lane(walletId, lane),
        UpdateExpression: 'ADD available :neg, #q :neg, #s :amt, entryCount :one',
        ConditionExpression: 'available >= :amt AND #q >= :amt',
        ExpressionAttributeNames: { '#q': `quota#${DAY}`, '#s': `spend#${DAY}` },
        ExpressionAttributeValues: {
          ':neg': toNumberAttribute(new Big(amount).times(-1)),
          ':amt': toNumberAttribute(new Big(amount)),
          ':one': 1,
        },
      }),
    );

  it('tops the lanes up from main (80% of the funds, evenly), then leaves a balanced wallet alone', async () => {
    const { walletId } = await walletWithBalance(table, '100.00');
    await promote(table, walletId, { partitions: 2, lanes: 4 }, fixedClock(at));
    const run = await runKeeperOnce(table, walletId, fixedClock(at));
    expect(run.moved).toEqual(['rebalance']);
    const parts = await checked(walletId);
    expect(parts.lanes.map((l) => l.available.toFixed(2))).toEqual(['20.00', '20.00', '20.00', '20.00']);
    expect(parts.main.balance.toFixed(2)).toBe('20.00');
    expect(exactBalances(parts).balance.toFixed(2)).toBe('100.00');
    expect((await runKeeperOnce(table, walletId, fixedClock(at))).moved).toEqual([]);
    // Credits arrive: folded, and the lanes grow with the funds.
    for (let i = 0; i < 5; i++) await putInboxCredit(table, walletId, 2, '20.00');
    const second = await runKeeperOnce(table, walletId, fixedClock(at));
    expect(second.moved).toContain('foldIntoMain');
    const after = await checked(walletId);
    expect(exactBalances(after).balance.toFixed(2)).toBe('200.00');
    expect(after.partitions.every((p) => p.inbox.length === 0)).toBe(true);
  });

  it('escrows each period limit: quotas granted from ungranted, re-synced after a policy change', async () => {
    const { walletId, organizationId } = await walletWithBalance(table, '100.00');
    await withDailyLimit(walletId, organizationId, '50');
    await setOnMain(walletId, 'SET #s = :s', { '#s': `spend#${DAY}` }, { ':s': toNumberAttribute(new Big(10)) });
    await promote(table, walletId, { partitions: 1, lanes: 4 }, fixedClock(at));
    await runKeeperOnce(table, walletId, fixedClock(at));
    let parts = await checked(walletId);
    expect(parts.lanes.map((l) => l.quota[DAY]?.toFixed(2))).toEqual(['8.00', '8.00', '8.00', '8.00']);
    expect(parts.main.ungranted[DAY]?.toFixed(2)).toBe('8.00');

    await laneDebit(walletId, 1, '5.00');
    parts = await checked(walletId);
    expect(parts.lanes[1]?.spend[DAY]?.toFixed(2)).toBe('5.00');

    // A policy change (core bumps main's policyVersion with every policy write): the limit is now 30.
    await withDailyLimit(walletId, organizationId, '30', 2, false);
    await setOnMain(walletId, 'ADD policyVersion :one', {}, { ':one': 1 });
    const run = await runKeeperOnce(table, walletId, fixedClock(at));
    expect(run.moved.slice(0, 2)).toEqual(['resync', 'rebalance']);
    parts = await checked(walletId);
    expect(parts.lanes.every((l) => l.policyVersion === parts.main.policyVersion)).toBe(true);
    // 30 − (10 on main + 5 on lane 1) = 15 not spent: 80% of it in the lanes.
    const granted = parts.lanes.reduce((sum, l) => sum.plus(l.quota[DAY] ?? 0), new Big(0));
    expect(granted.plus(parts.main.ungranted[DAY]!).toFixed(2)).toBe('15.00');
    expect(granted.toFixed(2)).toBe('12.00');
  });

  it('pre-grants the next day before midnight and drops period keys that are over', async () => {
    const { walletId, organizationId } = await walletWithBalance(table, '100.00');
    await withDailyLimit(walletId, organizationId, '40');
    const clock = fixedClock(new Date('2026-11-28T23:57:00Z'));
    await promote(table, walletId, { partitions: 1, lanes: 2 }, clock);
    await runKeeperOnce(table, walletId, clock);
    let parts = await checked(walletId, clock);
    expect(parts.main.ungranted['DAY#2026-11-29']).toBeDefined();
    expect(parts.lanes.every((l) => l.quota['DAY#2026-11-29']?.gt(0))).toBe(true);
    clock.set(new Date('2026-11-30T10:00:00Z'));
    const later = await runKeeperOnce(table, walletId, clock);
    expect(later.moved).toContain('dropKeys');
    parts = await checked(walletId, clock);
    expect(Object.keys(parts.main.ungranted)).not.toContain(DAY);
    expect(parts.lanes.every((l) => l.quota[DAY] === undefined)).toBe(true);
  });

  it('freezes main and every lane in one transaction; the keeper re-syncs a lane that missed a status', async () => {
    const { walletId } = await walletWithBalance(table, '10.00');
    await promote(table, walletId, { partitions: 1, lanes: 3 }, fixedClock(at));
    expect(await setHotWalletStatus(table, walletId, 'FROZEN')).toBe(true);
    let parts = await checked(walletId);
    expect([parts.main.status, ...parts.lanes.map((l) => l.status)]).toEqual(['FROZEN', 'FROZEN', 'FROZEN', 'FROZEN']);
    expect(await setHotWalletStatus(table, walletId, 'FROZEN')).toBe(false);
    // Unfrozen by the cold path (main only): the keeper brings the lanes back.
    await setOnMain(walletId, 'SET #st = :a', { '#st': 'status' }, { ':a': 'ACTIVE' });
    expect((await runKeeperOnce(table, walletId, fixedClock(at))).moved[0]).toBe('laneStatus');
    parts = await checked(walletId);
    expect(parts.lanes.map((l) => l.status)).toEqual(['ACTIVE', 'ACTIVE', 'ACTIVE']);
  });

  it('two keepers at once keep every invariant and the exact balance', async () => {
    const { walletId, organizationId } = await walletWithBalance(table, '300.00');
    await withDailyLimit(walletId, organizationId, '100');
    await promote(table, walletId, { partitions: 3, lanes: 6 }, fixedClock(at));
    for (let i = 0; i < 12; i++) await putInboxCredit(table, walletId, 3, '2.50');
    await Promise.all([
      runKeeperOnce(table, walletId, fixedClock(at)),
      runKeeperOnce(table, walletId, fixedClock(at)),
      runKeeperOnce(table, walletId, fixedClock(at)),
    ]);
    const parts = await checked(walletId);
    expect(exactBalances(parts).balance.toFixed(2)).toBe('330.00');
  });

  it('demotes without losing a cent: COOLING, then after the settle window folded, drained, cold', async () => {
    const { walletId, organizationId } = await walletWithBalance(table, '50.00');
    await withDailyLimit(walletId, organizationId, '20');
    const clock = fixedClock(at);
    await promote(table, walletId, { partitions: 2, lanes: 3 }, clock);
    await runKeeperOnce(table, walletId, clock);
    await laneDebit(walletId, 0, '3.00');
    await putInboxCredit(table, walletId, 2, '7.25');
    expect((await demote(table, walletId, clock))?.state).toBe('COOLING');
    expect((await runKeeperOnce(table, walletId, clock)).moved).not.toContain('finishDemotion');
    clock.advance(61_000);
    expect((await runKeeperOnce(table, walletId, clock)).moved).toContain('finishDemotion');
    expect(await readHotWallet(table, walletId)).toBeUndefined();
    const wallet = await readExactWallet(table, walletId);
    // 50 − 3 spent from a lane (its payee is not in this test) + 7.25 credited.
    expect(wallet?.balance.toFixed(2)).toBe('54.25');
    const { counters } = (await createWalletSnapshotReader(table).getWalletSnapshot(walletId))!;
    expect(counters.find((c) => c.periodKey === '2026-11-28')?.spent.toFixed(2)).toBe('3.00');
    // Promoted again: the accumulators it kept still balance with main's folded#g.
    await promote(table, walletId, { partitions: 2, lanes: 2 }, clock);
    expect(exactBalances((await readHotWallet(table, walletId))!).balance.toFixed(2)).toBe('54.25');
  });

  it('bounces a credit that landed in a closed wallet back to its payer, once', async () => {
    const routed = { ...table, hot: createHotRouting({ reads: keeperReads(table) }) };
    const ledger = createLedgerService({ store: createLedgerStore(routed), clock: systemClock, ids: newId });
    const payer = await walletWithBalance(table, '10.00');
    const closed = await walletWithBalance(table, '0');
    await promote(table, closed.walletId, { partitions: 1, lanes: 1 }, systemClock);
    const scope = { organizationId: payer.organizationId, environment: 'SANDBOX' as const };
    const payment = await ledger.post(scope, {
      from: ledger.walletAccount(payer.walletId),
      to: ledger.walletAccount(closed.walletId),
      amount: new Big(4),
    });
    // The credit went to the inbox (part core's route); then the wallet closed before a fold.
    await setOnMain(closed.walletId, 'SET deletedAt = :at', {}, { ':at': new Date().toISOString() });
    const [first, second] = await Promise.all([
      runKeeperOnce(table, closed.walletId, systemClock),
      runKeeperOnce(table, closed.walletId, systemClock),
    ]);
    expect([...first.moved, ...second.moved].filter((kind) => kind === 'bounce')).toHaveLength(1);
    expect((await readExactWallet(table, payer.walletId))?.balance.toFixed(2)).toBe('10.00');
    const parts = (await readHotWallet(table, closed.walletId))!;
    expect(parts.partitions[0]?.inbox).toEqual([]);
    expect(hotInvariants(parts)).toEqual([]);
    expect((await createLedgerStore(table).getJournalRecord(payment.id))?.status).toBe('REVERSED');
  });

  it('a closed wallet: a fold that credited an item and died is finished, never bounced; a bounce stops a stale fold', async () => {
    const routed = { ...table, hot: createHotRouting({ reads: keeperReads(table) }) };
    const ledger = createLedgerService({ store: createLedgerStore(routed), clock: systemClock, ids: newId });
    const payer = await walletWithBalance(table, '10.00');
    const closed = await walletWithBalance(table, '0');
    await promote(table, closed.walletId, { partitions: 1, lanes: 1 }, systemClock);
    const scope = { organizationId: payer.organizationId, environment: 'SANDBOX' as const };
    const pay = (amount: number) =>
      ledger.post(scope, {
        from: ledger.walletAccount(payer.walletId),
        to: ledger.walletAccount(closed.walletId),
        amount: new Big(amount),
      });
    await pay(1);
    // A fold credits the first payment and dies before its deletes (the accumulator lists it pending).
    const dying = {
      ...table,
      client: {
        send: (command: { constructor: { name: string } }) =>
          command.constructor.name === 'BatchWriteCommand'
            ? Promise.reject(new Error('the keeper died'))
            : table.client.send(command as never),
      } as unknown as typeof table.client,
    };
    await expect(foldPartition(dying, closed.walletId, 0)).rejects.toThrow('the keeper died');
    const second = await pay(2);
    await setOnMain(closed.walletId, 'SET deletedAt = :at', {}, { ':at': new Date().toISOString() });
    // A fold planned before the close reads the second credit; the keeper bounces it before the
    // fold's credit is written: the bounce moved the accumulator's seq, so the fold credits nothing.
    let bounced = false;
    const stale = {
      ...table,
      client: {
        send: async (command: { constructor: { name: string }; input: { UpdateExpression?: string } }) => {
          if (!bounced && command.input.UpdateExpression?.startsWith('ADD credited')) {
            bounced = true;
            expect((await runKeeperOnce(table, closed.walletId, systemClock)).moved).toContain('bounce');
          }
          return table.client.send(command as never);
        },
      } as unknown as typeof table.client,
    };
    expect(await foldPartition(stale, closed.walletId, 0)).toBe(0);
    expect(bounced).toBe(true);
    // The first payment stayed the wallet's (on its accumulator); the second went back to the payer.
    expect((await readExactWallet(table, payer.walletId))?.balance.toFixed(2)).toBe('9.00');
    const parts = (await readHotWallet(table, closed.walletId))!;
    expect(parts.partitions[0]?.inbox).toEqual([]);
    expect(parts.partitions[0]?.credited.toFixed(2)).toBe('1.00');
    expect(hotInvariants(parts)).toEqual([]);
    expect((await createLedgerStore(table).getJournalRecord(second.id))?.status).toBe('REVERSED');
  });

  it('the ledger check counts a hot wallet exactly (main, folds, inbox, lanes) and finds a broken sub-item', async () => {
    const own = await createTestTable();
    const routed = { ...own, hot: createHotRouting({ reads: keeperReads(own) }) };
    const ledger = createLedgerService({ store: createLedgerStore(routed), clock: systemClock, ids: newId });
    const payer = await walletWithBalance(own, '0');
    const hot = await walletWithBalance(own, '0');
    const scope = { organizationId: payer.organizationId, environment: 'SANDBOX' as const };
    const funding = systemAccount(SYSTEM_ACCOUNTS.sandboxFunding);
    await ledger.post(scope, {
      from: funding,
      to: ledger.walletAccount(payer.walletId),
      amount: new Big(50),
      type: 'FUNDING',
    });
    await ledger.post(scope, {
      from: funding,
      to: ledger.walletAccount(hot.walletId),
      amount: new Big(40),
      type: 'FUNDING',
    });
    await promote(own, hot.walletId, { partitions: 2, lanes: 2 }, systemClock);
    await runKeeperOnce(own, hot.walletId, systemClock);
    // A payment into the hot wallet: part core's route puts its credit in the inbox.
    const payment = await ledger.post(scope, {
      from: ledger.walletAccount(payer.walletId),
      to: ledger.walletAccount(hot.walletId),
      amount: new Big('12.34'),
    });
    expect(
      (await readHotWallet(own, hot.walletId))?.partitions.flatMap((p) => p.inbox.map((e) => e.transactionId)),
    ).toEqual([payment.id]);
    expect((await checkLedger(own.client, own.tableName)).problems).toEqual([]);
    const statement = await createWalletStore(own).getStatement(hot.walletId, { limit: 10 });
    expect(statement.items.map((entry) => [entry.amount.toFixed(2), entry.balanceAfter.toFixed(2)])).toEqual([
      ['12.34', '52.34'],
      ['40.00', '40.00'],
    ]);
    await runKeeperOnce(own, hot.walletId, systemClock);
    expect((await checkLedger(own.client, own.tableName)).problems).toEqual([]);
    // A lane that lost a cent: the wallet no longer adds up to its legs.
    await own.client.send(
      new UpdateCommand({
        TableName: own.tableName,
        Key: hotKeys.lane(hot.walletId, 1),
        UpdateExpression: 'ADD available :minus',
        ExpressionAttributeValues: { ':minus': toNumberAttribute(new Big('-0.01')) },
      }),
    );
    const broken = await checkLedger(own.client, own.tableName);
    expect(broken.problems.some((p) => p.includes(hot.walletId) && p.includes('legs sum to 52.34'))).toBe(true);
  });
});
