import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../shared/config/config.js';
import { AUDIT } from '../../shared/domain/audit/actions.js';
import { hotInvariants } from '../../shared/domain/ledger/hot/hot-balances.js';
import type { HotWalletParts } from '../../shared/domain/ledger/hot/hot-types.js';
import { toNumberAttribute } from '../../shared/persistence/client.js';
import { createCore } from '../../shared/runtime/core.js';
import { hotOps } from '../fixtures/hot-property/hot-ops.js';
import { AGENT, centsToAmount, MAIN } from '../fixtures/hot-property/oracle.js';
import { clientOps, newHotWorld, type HotWorld } from '../fixtures/hot-property/world.js';
import { createMemoryDynamo } from '../fakes/memory-dynamo/index.js';

/**
 * Defects the hot-wallet property (test/unit/hot-ledger-property.test.ts) found with hot payers,
 * policy changes on hot wallets and the service view on (issue 25, second session), each as its
 * smallest case over memory-dynamo with the property's world (the services, two processes' routing
 * caches, the real keeper). Each failed before its fix.
 */
async function world(at = '2026-11-28T10:00:00.000Z'): Promise<HotWorld> {
  const memory = createMemoryDynamo({ tables: ['defects'] });
  return newHotWorld({ client: memory.client, tableName: 'defects' }, new Date(at));
}

const pay = (w: HotWorld, from: number, to: number, cents: number, proc = 0) =>
  clientOps.pay(w, proc, from as 0, to as 0, centsToAmount(cents), `key-${Math.random()}`);
const fund = (w: HotWorld, to: number, cents: number, proc = 0) =>
  clientOps.fund(w, proc, to as 0, centsToAmount(cents), `fund-${Math.random()}`);

async function setDaily(w: HotWorld, wallet: number, cents: number) {
  await w.processes[0]!.services.policies.update(w.requester, AUDIT.policy.update, w.policyIds[wallet as 0]!, {
    dailyLimit: centsToAmount(cents),
  });
}

async function keeperUntilQuiet(w: HotWorld, wallet: number) {
  for (let i = 0; i < 20; i++) if (!(await hotOps.keeperStep(w.table, w.walletIds[wallet]!, w.clock))) return;
}

describe('hot wallet defects found by the property (second session)', () => {
  it('a policy change re-syncs the next period pre-granted before it (keeper-plan.ts resyncOf)', async () => {
    // 5 minutes before midnight the keeper pre-grants tomorrow's quota under a daily limit of 0.13;
    // the limit becomes 73.75: tomorrow's ungranted must follow it (it kept 0.04 of the old one, and
    // tomorrow's payments were refused POLICY_DENIED far below the limit).
    const w = await world('2026-11-28T23:57:00.000Z');
    await setDaily(w, MAIN, 13);
    expect((await fund(w, MAIN, 20_000)).code).toBe('OK');
    await hotOps.promote(w.table, w.walletIds[MAIN]!, { partitions: 1, lanes: 3 }, w.clock);
    await keeperUntilQuiet(w, MAIN);
    await setDaily(w, MAIN, 7375);
    await keeperUntilQuiet(w, MAIN);
    w.clock.set(new Date('2026-11-29T00:00:30.000Z'));
    const parts = await hotOps.inspect(w.table, w.walletIds[MAIN]!, w.clock.now());
    expect(parts.problems).toEqual([]);
    expect((await pay(w, MAIN, AGENT, 7000)).code).toBe('OK');
  });

  it('the slow path while a re-sync is due takes the new limit, not the old ungranted (hot-slow-path.ts)', async () => {
    const w = await world();
    expect((await fund(w, MAIN, 20_000)).code).toBe('OK');
    await setDaily(w, MAIN, 10_000);
    await hotOps.promote(w.table, w.walletIds[MAIN]!, { partitions: 1, lanes: 2 }, w.clock);
    await keeperUntilQuiet(w, MAIN);
    // Lowered to 0.10 and no keeper yet: 50.00 must be refused (main still held 20.00 of the old quota).
    await setDaily(w, MAIN, 10);
    expect((await pay(w, MAIN, AGENT, 5_000)).code).toBe('POLICY_DENIED');
    expect((await pay(w, MAIN, AGENT, 10)).code).toBe('OK');
    expect((await pay(w, MAIN, AGENT, 1)).code).toBe('POLICY_DENIED');
    // Raised to 150.00, still no keeper: 100.00 more fits (the old ungranted alone was short).
    await setDaily(w, MAIN, 15_000);
    expect((await pay(w, MAIN, AGENT, 10_000)).code).toBe('OK');
    await keeperUntilQuiet(w, MAIN);
    const parts = await hotOps.inspect(w.table, w.walletIds[MAIN]!, w.clock.now());
    expect(parts.problems).toEqual([]);
    expect(parts.spend['DAY#2026-11-28']?.toFixed(2)).toBe('100.10');
  });

  it('a credit into a hot wallet resumed a moment ago is not refused on a cached FROZEN (hot-cache.ts)', async () => {
    const w = await world();
    await hotOps.promote(w.table, w.walletIds[AGENT]!, { partitions: 2, lanes: 2 }, w.clock);
    const agents = w.processes[0]!.services.agents;
    await agents.pause(w.requester, AUDIT.wallet.freeze, w.walletIds[AGENT]!);
    // Process 1 learns the wallet FROZEN (its credit refused), then the agent is resumed at the same instant.
    expect((await fund(w, AGENT, 500, 1)).code).toBe('WALLET_FROZEN');
    await agents.resume(w.requester, AUDIT.wallet.unfreeze, w.walletIds[AGENT]!);
    expect((await fund(w, AGENT, 500, 1)).code).toBe('OK');
  });

  it("a process's routing cache ages on the process's clock, the clock of the demotion's settle window (core.ts)", () => {
    let now = Date.parse('2026-11-28T10:00:00.000Z');
    const clock = { now: () => new Date(now) };
    const core = createCore(loadConfig({ TABLE_NAME: 'defects', DYNAMODB_ENDPOINT: 'http://127.0.0.1:1' }), { clock });
    const hot = {
      state: 'HOT',
      partitions: toNumberAttribute(new Big(1)),
      lanes: toNumberAttribute(new Big(1)),
      since: 'x',
    };
    const main = { status: 'ACTIVE', environment: 'SANDBOX', hot };
    core.table.hot!.remember('wal_a', main);
    expect(core.table.hot!.entryOf('wal_a')).toBeDefined();
    now += 61_000;
    expect(core.table.hot!.entryOf('wal_a')).toBeUndefined();
    expect(core.table.hot!.expired(['wal_a'])).toEqual(['wal_a']);
  });

  it('hotInvariants: no overspend while a re-sync is due (the lanes hold the old policy quota)', () => {
    const parts: HotWalletParts = {
      walletId: 'wal_defect',
      main: {
        hot: { state: 'HOT', partitions: 1, lanes: 1, since: '2026-11-28T10:00:00.000Z' },
        seq: 3,
        folded: {},
        ungranted: { 'DAY#2026-11-28': new Big(20) },
        policyVersion: 3,
        balance: new Big(100),
        heldBalance: new Big(0),
        pendingBalance: new Big(0),
        spend: { 'DAY#2026-11-28': new Big('37.31') },
        status: 'ACTIVE',
      },
      partitions: [{ partition: 0, credited: new Big(0), seq: 0, entryCount: 0, inbox: [] }],
      lanes: [
        {
          lane: 0,
          status: 'ACTIVE',
          environment: 'SANDBOX',
          policyVersion: 2,
          available: new Big(10),
          quota: { 'DAY#2026-11-28': new Big(30) },
          spend: {},
          seq: 1,
          entryCount: 0,
        },
      ],
    };
    expect(hotInvariants(parts, new Map([['DAY#2026-11-28', new Big('0.1')]]))).toEqual([]);
  });
});
