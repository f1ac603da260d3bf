import { describe, expect, it } from 'vitest';
import { AUDIT } from '../../shared/domain/audit/actions.js';
import { readHotWallet } from '../../shared/persistence/hot/hot-read.js';
import { hotOps } from '../fixtures/hot-property/hot-ops.js';
import { AGENT, centsToAmount, MAIN, MERCHANT } from '../fixtures/hot-property/oracle.js';
import { clientOps, newHotWorld, type HotWorld } from '../fixtures/hot-property/world.js';
import { createMemoryDynamo } from '../fakes/memory-dynamo/index.js';

/**
 * Defects the hot-wallet property (test/unit/hot-ledger-property.test.ts) found with more runs and
 * other seeds (issue 25, third session), each as its smallest case over memory-dynamo with the
 * property's world (the services, two processes' routing caches, the real keeper). Each hot case
 * failed before its fix; a cold case beside one is the answer the hot wallet must give.
 */
async function world(at = '2026-11-28T10:00:00.000Z'): Promise<HotWorld> {
  const memory = createMemoryDynamo({ tables: ['defects'] });
  return newHotWorld({ client: memory.client, tableName: 'defects' }, new Date(at));
}

const key = () => `key-${Math.random()}`;
const pay = (w: HotWorld, from: number, to: number, cents: number, proc = 0) =>
  clientOps.pay(w, proc, from as 0, to as 0, centsToAmount(cents), key());
const fund = (w: HotWorld, to: number, cents: number, proc = 0) =>
  clientOps.fund(w, proc, to as 0, centsToAmount(cents), key());

async function keeperUntilQuiet(w: HotWorld, wallet: number) {
  for (let i = 0; i < 20; i++) if (!(await hotOps.keeperStep(w.table, w.walletIds[wallet]!, w.clock))) return;
}

describe('hot wallet defects found by the property (third session)', () => {
  // HOT_PROPERTY_SEED=20261128, run 441: the reversal's paying wallet is short and its receiving
  // wallet (hot) is frozen. A cold receiver answers INSUFFICIENT_FUNDS: the transaction's first
  // failed condition is the paying wallet's (posting-writers.ts: the wallets in the order of the
  // legs, transact.ts: the first failed item answers). The hot inbox credit refused on the cached
  // FROZEN status before the transaction ran: WALLET_FROZEN, whatever the payer's refusal.
  it.each([
    ['cold', false],
    ['hot', true],
  ])(
    'a reversal into a frozen %s wallet from a payer short of funds answers INSUFFICIENT_FUNDS',
    async (_mode, hot) => {
      const w = await world();
      expect((await fund(w, AGENT, 2_000)).code).toBe('OK');
      const paid = await pay(w, AGENT, MERCHANT, 1_500);
      expect(paid.code).toBe('OK');
      // The merchant spends it: 5.00 left, the reversal needs 15.00.
      expect((await pay(w, MERCHANT, MAIN, 1_000)).code).toBe('OK');
      if (hot) {
        await hotOps.promote(w.table, w.walletIds[AGENT]!, { partitions: 2, lanes: 2 }, w.clock);
        await keeperUntilQuiet(w, AGENT);
      }
      await w.processes[0]!.services.agents.pause(w.requester, AUDIT.wallet.freeze, w.walletIds[AGENT]!);
      // Both processes know the wallet frozen (their routing caches past their 1 s: a credit refused on each).
      w.clock.advance(2_000);
      for (const proc of [0, 1]) expect((await fund(w, AGENT, 100, proc)).code).toBe('WALLET_FROZEN');
      const reversed = await clientOps.reverse(w, 1, paid.id!, key());
      expect(reversed.code).toBe('INSUFFICIENT_FUNDS');
      // With the funds there, the frozen receiver is the refusal, as before.
      expect((await fund(w, MERCHANT, 1_000)).code).toBe('OK');
      expect((await clientOps.reverse(w, 1, paid.id!, key())).code).toBe('WALLET_FROZEN');
      // Resumed, the reversal posts, and a hot wallet's parts agree.
      await w.processes[0]!.services.agents.resume(w.requester, AUDIT.wallet.unfreeze, w.walletIds[AGENT]!);
      expect((await clientOps.reverse(w, 1, paid.id!, key())).code).toBe('OK');
      const parts = await hotOps.inspect(w.table, w.walletIds[AGENT]!, w.clock.now());
      expect(parts.problems).toEqual([]);
      if (hot) expect(parts.exact?.available.toFixed(2)).toBe('20.00');
    },
  );
});

describe('hot wallet status changes on a routing cache older than a re-promotion', () => {
  const agents = (w: HotWorld) => w.processes[0]!.services.agents;
  const laneStatuses = async (w: HotWorld) =>
    (await readHotWallet(w.table, w.walletIds[AGENT]!))!.lanes.map((lane) => lane.status);

  /** The agent hot with `before` lanes, demoted to cold meanwhile and promoted again with `after` lanes, at one instant. */
  async function repromoted(before: number, after: number, then: (w: HotWorld) => Promise<void>) {
    const w = await world();
    expect((await fund(w, AGENT, 5_000)).code).toBe('OK');
    await hotOps.promote(w.table, w.walletIds[AGENT]!, { partitions: 2, lanes: before }, w.clock);
    await keeperUntilQuiet(w, AGENT);
    await hotOps.demote(w.table, w.walletIds[AGENT]!, w.clock);
    w.clock.advance(61_000);
    // Process 0 learns the wallet COOLING with `before` lanes (its cache is fresh: the clock stands still).
    await then(w);
    await keeperUntilQuiet(w, AGENT);
    await hotOps.promote(w.table, w.walletIds[AGENT]!, { partitions: 1, lanes: after }, w.clock);
    await keeperUntilQuiet(w, AGENT);
    return w;
  }

  // HOT_PROPERTY_SEED=1971360230 run 146: the cache knew 3 lanes (COOLING), the wallet was hot again
  // with 1: the resume wrote lanes 1 and 2, which no longer exist, and answered CONCURRENT_UPDATE on
  // every retry while the cache's entry lived (the lane's failure is no routing signal).
  it('a resume with a cache that knows more lanes than exist resumes the wallet', async () => {
    const w = await repromoted(3, 1, async (w) => {
      await agents(w).pause(w.requester, AUDIT.wallet.freeze, w.walletIds[AGENT]!);
    });
    await agents(w).resume(w.requester, AUDIT.wallet.unfreeze, w.walletIds[AGENT]!);
    expect(await laneStatuses(w)).toEqual(['ACTIVE']);
    expect((await pay(w, AGENT, MAIN, 100)).code).toBe('OK');
  });

  // The other way round, the same stale route: a pause that froze lane 0 only would leave lanes 1
  // and 2 paying out of a frozen wallet until the keeper's next run (decisions.md section 13).
  it('a pause with a cache that knows fewer lanes than exist freezes every lane', async () => {
    const w = await repromoted(1, 3, async (w) => {
      await agents(w).pause(w.requester, AUDIT.wallet.freeze, w.walletIds[AGENT]!);
      await agents(w).resume(w.requester, AUDIT.wallet.unfreeze, w.walletIds[AGENT]!);
    });
    await agents(w).pause(w.requester, AUDIT.wallet.freeze, w.walletIds[AGENT]!);
    expect(await laneStatuses(w)).toEqual(['FROZEN', 'FROZEN', 'FROZEN']);
  });
});
