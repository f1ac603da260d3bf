import { GetCommand } from '@aws-sdk/lib-dynamodb';
import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../shared/domain/clock.js';
import { ApiError } from '../../shared/domain/errors.js';
import { laneSequence } from '../../shared/domain/ledger/hot/hot-routing.js';
import { createLedgerService } from '../../shared/domain/ledger/ledger-service.js';
import { SYSTEM_ACCOUNTS, systemAccount, walletAccount } from '../../shared/domain/ledger/posting.js';
import { newWallet } from '../../shared/domain/wallets/wallet-rules.js';
import { readBig, readInt } from '../../shared/persistence/client.js';
import { createCommitter } from '../../shared/persistence/change-writer.js';
import { hotKeys } from '../../shared/persistence/entities/hot-wallet.js';
import { transactionKeys } from '../../shared/persistence/entities/transaction.js';
import { walletKeys } from '../../shared/persistence/entities/wallet.js';
import { createHotRouting, type HotRouting } from '../../shared/persistence/hot/hot-cache.js';
import { CONFLICT_RETRY_LIMIT } from '../../shared/persistence/transact.js';
import { LANE_CONFLICT_ROUNDS } from '../../shared/persistence/hot/hot-committer.js';
import { exactAvailable } from '../../shared/persistence/hot/hot-slow-path.js';
import { createLedgerStore } from '../../shared/persistence/ledger-store.js';
import type { TableContext } from '../../shared/persistence/table-context.js';
import { WRITERS } from '../../shared/persistence/writers/index.js';
import { seededRandom } from '../../bench/lib/virtual-time.js';
import { createMemoryDynamo } from '../fakes/memory-dynamo/index.js';
import { fundLaneForTest, promoteForTest, testHotReads } from '../fixtures/hot-wallet.js';

/**
 * The lane a hot wallet's debit takes (docs/architecture.md "Hot wallets"): a process serving one
 * request at a time (a Lambda execution environment) keeps a sticky lane per wallet; a
 * TransactionConflict on it moves it for good to another lane at random, so environments converge
 * to distinct lanes; a refusal (lane short) still walks to the next lanes, then the exact slow path.
 */
describe('sticky lanes: the rule of one environment', () => {
  it('moves a sticky lane that met a conflict, for good, to another lane', () => {
    const routing = createHotRouting({ random: () => 0.5, stickyLanes: true });
    expect(routing.stickyLane('wal_a', 8)).toBe(4);
    routing.laneConflicted('wal_a', 4, 8);
    const moved = routing.stickyLane('wal_a', 8)!;
    expect(moved).not.toBe(4);
    expect(routing.stickyLane('wal_a', 8)).toBe(moved);
    // A conflict on a lane it no longer sits on (an older attempt's) does not move it again.
    routing.laneConflicted('wal_a', 4, 8);
    expect(routing.stickyLane('wal_a', 8)).toBe(moved);
    // Another wallet's sticky lane is its own.
    expect(routing.stickyLane('wal_b', 8)).toBe(4);
  });

  it('never lands on the lane it left, whatever the random draw', () => {
    for (const draw of [0, 0.3, 0.999999]) {
      const routing = createHotRouting({ random: () => draw, stickyLanes: true });
      const first = routing.stickyLane('wal_a', 3)!;
      routing.laneConflicted('wal_a', first, 3);
      expect(routing.stickyLane('wal_a', 3)).not.toBe(first);
    }
  });

  it('without sticky lanes (a process serving many requests) a conflict moves nothing', () => {
    const routing = createHotRouting({ random: () => 0.5 });
    routing.laneConflicted('wal_a', 4, 8);
    expect(routing.stickyLane('wal_a', 8)).toBeUndefined();
  });

  it('two environments on the same lane converge to distinct lanes: the one that conflicted moves', () => {
    const a = createHotRouting({ random: () => 0.25, stickyLanes: true });
    const b = createHotRouting({ random: () => 0.25, stickyLanes: true });
    expect(a.stickyLane('wal_a', 4)).toBe(b.stickyLane('wal_a', 4));
    b.laneConflicted('wal_a', b.stickyLane('wal_a', 4)!, 4);
    expect(a.stickyLane('wal_a', 4)).toBe(1);
    expect(b.stickyLane('wal_a', 4)).not.toBe(1);
  });

  it('50 environments on 64 lanes end on distinct lanes (slotted rounds: on a shared lane one commits, the others move)', () => {
    const random = seededRandom(25);
    const environments = Array.from({ length: 50 }, () => createHotRouting({ random, stickyLanes: true }));
    let rounds = 0;
    for (; rounds < 50; rounds++) {
      const holders = new Map<number, HotRouting>();
      let conflicts = 0;
      for (const environment of environments) {
        const lane = environment.stickyLane('wal_a', 64)!;
        if (!holders.has(lane)) holders.set(lane, environment);
        else {
          environment.laneConflicted('wal_a', lane, 64);
          conflicts++;
        }
      }
      if (conflicts === 0) break;
    }
    expect(rounds).toBeLessThan(20);
    expect(new Set(environments.map((environment) => environment.stickyLane('wal_a', 64))).size).toBe(50);
  });
});

describe('the wallets known hot at a process start', () => {
  it('are read once, then read again (their main) before routing, until a read says cold', async () => {
    let reads = 0;
    const routing = createHotRouting({
      knownHot: async () => {
        reads++;
        return ['wal_hot'];
      },
    });
    expect(routing.expired(['wal_hot'])).toEqual([]);
    await routing.warm();
    await routing.warm();
    expect(reads).toBe(1);
    expect(routing.expired(['wal_hot', 'wal_cold'])).toEqual(['wal_hot']);
    expect(routing.entryOf('wal_hot')).toBeUndefined();
    routing.remember('wal_hot', { status: 'ACTIVE' });
    expect(routing.expired(['wal_hot'])).toEqual([]);
  });

  it('a failed read of them leaves the routing as without them (a wallet learnt from its cold route)', async () => {
    const routing = createHotRouting({
      knownHot: () => Promise.reject(new Error('throttled')),
    });
    await routing.warm();
    expect(routing.expired(['wal_hot'])).toEqual([]);
  });
});

describe('sticky lanes through the committer (memory-dynamo)', () => {
  const scope = { organizationId: 'org_lanes', environment: 'SANDBOX' as const };
  const at = '2026-11-28T10:00:00.000Z';

  /** A hot payer with `lanes` funded as given (and `main` left on main), a cold payee, one environment's routing. */
  async function world(main: string, lanes: string[], routing: HotRouting) {
    const memory = createMemoryDynamo({ tables: ['lanes'] });
    const slept: number[] = [];
    const sleep = async (ms: number) => void slept.push(ms);
    const plain: TableContext = { client: memory.client, tableName: 'lanes', transact: { sleep } };
    const table: TableContext = { ...plain, hot: routing };
    const [payer, payee] = ['wal_lanespayer', 'wal_lanespayee'];
    await createCommitter(plain, WRITERS).commit(
      [payer, payee].map((id) => ({
        type: 'createWallet' as const,
        wallet: newWallet({ id, ...scope, name: id, walletType: 'ORG', isMain: false, createdAt: at }),
      })),
    );
    let n = 0;
    const ledgerOf = (on: TableContext) =>
      createLedgerService({ store: createLedgerStore(on), clock: fixedClock(new Date(at)), ids: () => `txn_l${++n}` });
    const total = lanes.reduce((sum, lane) => sum.plus(lane), new Big(main));
    await ledgerOf(plain).post(scope, {
      from: systemAccount(SYSTEM_ACCOUNTS.sandboxFunding),
      to: walletAccount(payer),
      amount: total,
      type: 'FUNDING',
    });
    await promoteForTest(plain, payer, { partitions: 2, lanes: lanes.length });
    for (const [lane, amount] of lanes.entries())
      if (new Big(amount).gt(0)) await fundLaneForTest(plain, payer, lane, new Big(amount));
    const ledger = ledgerOf(table);
    const from = (on: HotRouting) => ledgerOf({ ...plain, hot: on });
    const get = async (key: { PK: string; SK: string }) =>
      (await memory.client.send(new GetCommand({ TableName: 'lanes', Key: key, ConsistentRead: true }))).Item!;
    return {
      memory,
      slept,
      payer,
      payee,
      get,
      pay: (amount: string) =>
        ledger.post(scope, { from: walletAccount(payer), to: walletAccount(payee), amount: new Big(amount) }),
      /** A payment through another process's routing (another execution environment). */
      payFrom: (on: HotRouting, amount: string) =>
        from(on).post(scope, { from: walletAccount(payer), to: walletAccount(payee), amount: new Big(amount) }),
      laneOf: async (transactionId: string) => readInt((await get(transactionKeys.primary(transactionId))).debitLane),
      available: async (lane: number) => readBig((await get(hotKeys.lane(payer, lane))).available).toFixed(2),
    };
  }

  /** Another environment's transaction holds `keys` (by PK) for the next `times` transactions that touch them. */
  function holding(memory: ReturnType<typeof createMemoryDynamo>, pks: string[], times = 1) {
    const met = { conflicts: 0 };
    memory.hooks.onTransaction = ({ keys, kind }) => {
      if (kind !== 'transaction' || met.conflicts >= times) return 'ok';
      const held = keys.flatMap((key, i) => (pks.includes(key.PK) ? [i] : []));
      if (held.length > 0) met.conflicts++;
      return held;
    };
    return met;
  }

  it('an environment whose sticky lane is held moves to another lane on the next attempt, for good', async () => {
    const routing = createHotRouting({ random: () => 0.5, stickyLanes: true });
    const w = await world('0', ['10', '10', '10', '10'], routing);
    expect(routing.stickyLane(w.payer, 4)).toBe(2);
    const met = holding(w.memory, [hotKeys.lane(w.payer, 2).PK]);
    const first = await w.pay('1');
    const moved = await w.laneOf(first.id);
    expect(met.conflicts).toBe(1);
    expect(moved).not.toBe(2);
    expect(routing.stickyLane(w.payer, 4)).toBe(moved);
    expect(await w.available(2)).toBe('10.00');
    expect(await w.available(moved)).toBe('9.00');
    // The next debit of this environment starts on its new lane (no conflict met).
    const second = await w.pay('1');
    expect(await w.laneOf(second.id)).toBe(moved);
  });

  it('a new environment that knows the wallet hot from the registry routes its first debit to a lane, not main', async () => {
    const w = await world('0', ['10', '10', '10', '10'], createHotRouting());
    const fresh = createHotRouting({ random: () => 0.5, stickyLanes: true, knownHot: async () => [w.payer] });
    const sent: string[][] = [];
    w.memory.hooks.onTransaction = ({ keys, kind }) => {
      if (kind === 'transaction') sent.push(keys.map((key) => key.PK));
      return 'ok';
    };
    const paid = await w.payFrom(fresh, '1');
    expect(await w.laneOf(paid.id)).toBe(2);
    expect(sent).toHaveLength(1);
    expect(sent[0]).not.toContain(walletKeys.primary(w.payer).PK);
  });

  it('a conflict on another item (the payee) leaves the sticky lane where it is', async () => {
    const routing = createHotRouting({ random: () => 0.5, stickyLanes: true });
    const w = await world('0', ['10', '10', '10', '10'], routing);
    const met = holding(w.memory, [walletKeys.primary(w.payee).PK]);
    const paid = await w.pay('1');
    expect(met.conflicts).toBe(1);
    expect(await w.laneOf(paid.id)).toBe(2);
    expect(routing.stickyLane(w.payer, 4)).toBe(2);
  });

  it('without sticky lanes, a debit whose hashed lane is held takes the next lane on its next attempt', async () => {
    const routing = createHotRouting();
    const w = await world('0', ['10', '10', '10', '10'], routing);
    // Every lane held once: whichever the hash picks conflicts once, the next attempt takes the next lane.
    const met = holding(
      w.memory,
      [0, 1, 2, 3].map((lane) => hotKeys.lane(w.payer, lane).PK),
    );
    const paid = await w.pay('1');
    expect(met.conflicts).toBe(1);
    const hashed = laneSequence(paid.id, 4)[0]!;
    expect(await w.laneOf(paid.id)).toBe((hashed + 1) % 4);
    expect(await w.available((hashed + 1) % 4)).toBe('9.00');
    expect(await w.available(hashed)).toBe('10.00');
    expect(routing.stickyLane(w.payer, 4)).toBeUndefined();
  });

  it('after a conflict on lanes only: the next lane at once, and more rounds; a conflict elsewhere: backoff, one round', async () => {
    const routing = createHotRouting({ random: () => 0.5, stickyLanes: true });
    const w = await world('0', ['10', '10', '10', '10'], routing);
    const lanes = [0, 1, 2, 3].map((lane) => hotKeys.lane(w.payer, lane).PK);
    const most = (1 + LANE_CONFLICT_ROUNDS) * CONFLICT_RETRY_LIMIT;
    // Every lane held for the first attempts (more environments than lanes): the last one allowed posts.
    const met = holding(w.memory, lanes, most - 1);
    await w.pay('1');
    expect(met.conflicts).toBe(most - 1);
    expect(w.slept).toEqual([]);
    // One more lane conflict: CONCURRENT_UPDATE (nothing written).
    const over = holding(w.memory, lanes, most);
    await expect(w.pay('1')).rejects.toMatchObject({ code: 'CONCURRENT_UPDATE' });
    expect(over.conflicts).toBe(most);
    // Conflicts on the payee: CONCURRENT_UPDATE after one round with its backoffs, as for a cold wallet.
    const payee = holding(w.memory, [walletKeys.primary(w.payee).PK], most);
    await expect(w.pay('1')).rejects.toMatchObject({ code: 'CONCURRENT_UPDATE' });
    expect(payee.conflicts).toBe(CONFLICT_RETRY_LIMIT);
    expect(w.slept).toHaveLength(CONFLICT_RETRY_LIMIT - 1);
    w.memory.hooks.onTransaction = undefined;
    const parts = await testHotReads({ client: w.memory.client, tableName: 'lanes' }).readHotWallet(w.payer);
    expect(exactAvailable(parts!).toFixed(2)).toBe('39.00');
  });

  it('a refusal still walks the next lanes (and moves the sticky lane on by one), then the exact slow path', async () => {
    const routing = createHotRouting({ random: () => 0.5, stickyLanes: true });
    const w = await world('2', ['1', '1', '0', '0', '5'], routing);
    expect(routing.stickyLane(w.payer, 5)).toBe(2);
    // Lanes 2 and 3 are short, lane 4 pays: the sticky lane moved on to it.
    const walked = await w.pay('3');
    expect(await w.laneOf(walked.id)).toBe(4);
    expect(routing.stickyLane(w.payer, 5)).toBe(4);
    expect(await w.available(4)).toBe('2.00');
    // 5.00 is more than any lane holds: lanes 4, 0, 1 refuse, the slow path pays from main and lanes, exactly.
    await expect(w.pay('6.01')).rejects.toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
    const slow = await w.pay('6');
    expect((await w.get(transactionKeys.primary(slow.id))).debitLane).toBeUndefined();
    const parts = await testHotReads({ client: w.memory.client, tableName: 'lanes' }).readHotWallet(w.payer);
    expect(exactAvailable(parts!).toFixed(2)).toBe('0.00');
    const refused = await w.pay('0.01').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).code).toBe('INSUFFICIENT_FUNDS');
  });
});
