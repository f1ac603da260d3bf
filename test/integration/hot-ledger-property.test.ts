import { describe, expect, it } from 'vitest';
import { coldOps } from '../fixtures/hot-property/cold-ops.js';
import { hotOps } from '../fixtures/hot-property/hot-ops.js';
import { runHotProperty } from '../fixtures/hot-property/property.js';
import { createTestTable } from '../fixtures/table.js';

/**
 * The hot-wallet property against DynamoDB Local with the real writers (the shorter run of issue
 * 25's "done when": >= 3,000 operations): the same commands, oracle and faults as the
 * memory-dynamo run (test/unit/hot-ledger-property.test.ts), fewer of them, on one table.
 *
 * Reproduce: HOT_PROPERTY_SEED=<seed> HOT_PROPERTY_PATH=<path> as printed; HOT_PROPERTY_DDB_RUNS /
 * HOT_PROPERTY_DDB_STEPS for more or longer sequences.
 */
const RUNS = Number(process.env.HOT_PROPERTY_DDB_RUNS ?? 30);
const STEPS = Number(process.env.HOT_PROPERTY_DDB_STEPS ?? 100);
const TIME_LIMIT_MS = Number(process.env.HOT_PROPERTY_TIME_LIMIT_MS ?? 480_000);

describe('hot wallets against DynamoDB Local, with faults', () => {
  it(
    'keeps every balance, spend and refusal equal to the cents oracle',
    async () => {
      const table = await createTestTable();
      const stats = await runHotProperty({
        name: 'hot property (DynamoDB Local)',
        runs: RUNS,
        steps: STEPS,
        ...(process.env.HOT_PROPERTY_SEED ? { seed: Number(process.env.HOT_PROPERTY_SEED) } : {}),
        ...(process.env.HOT_PROPERTY_PATH ? { path: process.env.HOT_PROPERTY_PATH } : {}),
        ops: process.env.HOT_PROPERTY_OPS === 'cold' ? coldOps : hotOps,
        tableOf: async () => ({ client: table.client, tableName: table.tableName }),
        // The ledger check scans the whole table (every run so far): every 10 steps, and at each run's end.
        checkLedgerEvery: 10,
        timeLimitMs: TIME_LIMIT_MS,
      });
      expect(stats.violations.slice(0, 3)).toEqual([]);
      expect(stats.operations).toBeGreaterThanOrEqual(RUNS * STEPS);
    },
    TIME_LIMIT_MS + 60_000,
  );
});
