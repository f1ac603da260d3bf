import { describe, expect, it } from 'vitest';
import { coldOps } from '../fixtures/hot-property/cold-ops.js';
import { hotOps } from '../fixtures/hot-property/hot-ops.js';
import { runHotProperty } from '../fixtures/hot-property/property.js';
import { createTestTable } from '../fixtures/table.js';

/**
 * The hot-wallet property against DynamoDB Local with the real writers (the shorter run of issue
 * 25's "done when"): the same commands, oracle and faults as the memory-dynamo run
 * (test/unit/hot-ledger-property.test.ts), fewer of them, each run on a table of its own (the
 * ledger check scans it). Hot mode by default with everything on: debits from hot wallets, policy
 * changes on them, closing a hot agent, the wallet service's view.
 *
 * Reproduce: HOT_PROPERTY_SEED=<seed> HOT_PROPERTY_PATH=<path> as printed; HOT_PROPERTY_DDB_RUNS /
 * HOT_PROPERTY_DDB_STEPS for more or longer sequences; HOT_PROPERTY_OPS=cold for the cold baseline.
 */
const RUNS = Number(process.env.HOT_PROPERTY_DDB_RUNS ?? 12);
const STEPS = Number(process.env.HOT_PROPERTY_DDB_STEPS ?? 40);
const TIME_LIMIT_MS = Number(process.env.HOT_PROPERTY_TIME_LIMIT_MS ?? 480_000);

describe('hot wallets against DynamoDB Local, with faults', () => {
  it(
    'keeps every balance, spend and refusal equal to the cents oracle',
    async () => {
      const stats = await runHotProperty({
        name: 'hot property (DynamoDB Local)',
        runs: RUNS,
        steps: STEPS,
        ...(process.env.HOT_PROPERTY_SEED ? { seed: Number(process.env.HOT_PROPERTY_SEED) } : {}),
        ...(process.env.HOT_PROPERTY_PATH ? { path: process.env.HOT_PROPERTY_PATH } : {}),
        ops: process.env.HOT_PROPERTY_OPS === 'cold' ? coldOps : hotOps,
        tableOf: async () => {
          const table = await createTestTable();
          return { client: table.client, tableName: table.tableName };
        },
        checkLedgerEvery: 10,
        serviceViewOfHot: process.env.HOT_PROPERTY_SERVICE_VIEW !== '0',
        hotPayers: process.env.HOT_PROPERTY_HOT_PAYERS !== '0',
        // Closing a hot agent (freeze and close, stragglers bounced): HOT_PROPERTY_HOT_CLOSE=0 turns it off.
        hotClose: process.env.HOT_PROPERTY_HOT_CLOSE !== '0',
        timeLimitMs: TIME_LIMIT_MS,
      });
      expect(stats.violations.slice(0, 3)).toEqual([]);
      expect(stats.operations).toBeGreaterThanOrEqual(RUNS * STEPS);
    },
    TIME_LIMIT_MS + 60_000,
  );
});
