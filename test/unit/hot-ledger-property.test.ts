import { describe, expect, it } from 'vitest';
import { coldOps } from '../fixtures/hot-property/cold-ops.js';
import { hotOps } from '../fixtures/hot-property/hot-ops.js';
import { runHotProperty } from '../fixtures/hot-property/property.js';
import { createMemoryDynamo } from '../fakes/memory-dynamo/index.js';

/**
 * The hot-wallet property of issue 25 ("done when" 2) on memory-dynamo with the real code (the
 * services, the posting writers and routing, the keeper's moves and exact read): random commands
 * (test/fixtures/hot-property/commands.ts) with injected TransactionConflicts (25 %), lost answers
 * (5 %), keeper crashes, two keepers at once and two processes' routing caches; after every step
 * the answers, balances, held balances and period spend equal the cents oracle and the hot
 * invariants hold; the wallet service's view and the ledger check every HOT_PROPERTY_CHECK_EVERY
 * steps and at each run's end.
 *
 * Hot mode by default, everything on: debits from hot wallets (payments, holds, reversals, an
 * agent's sweep), policy changes on hot wallets, promote and demote, closing a hot agent (its
 * stragglers bounced by the keeper and followed by the oracle). HOT_PROPERTY_RUNS and
 * HOT_PROPERTY_STEPS size it; reproduce a failure with the printed HOT_PROPERTY_SEED (and
 * HOT_PROPERTY_PATH). HOT_PROPERTY_OPS=cold runs only the cold baseline, HOT_PROPERTY_HOT_PAYERS=0,
 * HOT_PROPERTY_HOT_CLOSE=0 and HOT_PROPERTY_SERVICE_VIEW=0 turn those parts off.
 */
/**
 * CI runs one fixed seed (SEED) for RUNS runs: 0 violations, about 104,000 operations (issue 25
 * asks for at least 100,000). HOT_PROPERTY_SEED=random searches further.
 */
const SEED = 20261128;
const RUNS = Number(process.env.HOT_PROPERTY_RUNS ?? 600);
const STEPS = Number(process.env.HOT_PROPERTY_STEPS ?? 100);
const COLD_RUNS = Number(process.env.HOT_PROPERTY_COLD_RUNS ?? 40);
const TIME_LIMIT_MS = Number(process.env.HOT_PROPERTY_TIME_LIMIT_MS ?? 1_800_000);
const seeded = {
  ...(process.env.HOT_PROPERTY_SEED === 'random'
    ? {}
    : { seed: process.env.HOT_PROPERTY_SEED ? Number(process.env.HOT_PROPERTY_SEED) : SEED }),
  ...(process.env.HOT_PROPERTY_PATH ? { path: process.env.HOT_PROPERTY_PATH } : {}),
};
const tableOf = async () => ({
  client: createMemoryDynamo({ tables: ['hot-property'] }).client,
  tableName: 'hot-property',
});
const checkLedgerEvery = Number(process.env.HOT_PROPERTY_CHECK_EVERY ?? 10);

describe('hot wallets on memory-dynamo, with faults', () => {
  it.runIf(process.env.HOT_PROPERTY_OPS !== 'cold')(
    'keeps every answer, balance, spend and invariant of hot wallets equal to the cents oracle',
    async () => {
      const stats = await runHotProperty({
        name: 'hot property (memory-dynamo)',
        runs: RUNS,
        steps: STEPS,
        ...seeded,
        ops: hotOps,
        tableOf,
        checkLedgerEvery,
        serviceViewOfHot: process.env.HOT_PROPERTY_SERVICE_VIEW !== '0',
        hotPayers: process.env.HOT_PROPERTY_HOT_PAYERS !== '0',
        // Closing a hot agent (freeze and close, stragglers bounced): HOT_PROPERTY_HOT_CLOSE=0 turns it off.
        hotClose: process.env.HOT_PROPERTY_HOT_CLOSE !== '0',
        timeLimitMs: TIME_LIMIT_MS,
      });
      expect(stats.violations.slice(0, 3)).toEqual([]);
      expect(stats.operations).toBeGreaterThanOrEqual(RUNS * STEPS);
      // Hot mode is what is under test: nearly every operation runs with a hot wallet.
      expect(stats.hotOperations).toBeGreaterThanOrEqual(stats.operations * 0.9);
    },
    TIME_LIMIT_MS + 60_000,
  );

  it.runIf(process.env.HOT_PROPERTY_OPS !== 'hot')(
    'the cold baseline: the same commands with promotion and the keeper doing nothing',
    async () => {
      const stats = await runHotProperty({
        name: 'hot property, cold baseline (memory-dynamo)',
        runs: COLD_RUNS,
        steps: STEPS,
        ...seeded,
        ops: coldOps,
        tableOf,
        checkLedgerEvery,
        serviceViewOfHot: true,
        hotPayers: true,
        timeLimitMs: TIME_LIMIT_MS,
      });
      expect(stats.violations.slice(0, 3)).toEqual([]);
      expect(stats.operations).toBeGreaterThanOrEqual(COLD_RUNS * STEPS);
    },
    TIME_LIMIT_MS + 60_000,
  );
});
