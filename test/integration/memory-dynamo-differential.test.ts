import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type DiffCommand, diffCommandArbitrary, runDifferential } from '../fixtures/hot-property/differential.js';
import { createTestTable } from '../fixtures/table.js';
import { createMemoryDynamo } from '../fakes/memory-dynamo/index.js';

/**
 * memory-dynamo against DynamoDB Local (test/fixtures/hot-property/differential.ts): random
 * movements through the real writers and the keeper's moves, in lockstep on both, must answer the
 * same and leave the same items and index reads. The property and the bench run on memory-dynamo
 * because of this test.
 *
 * Reproduce: MEMORY_DIFF_SEED=<seed> (MEMORY_DIFF_PATH=<path>) as printed; MEMORY_DIFF_SEED=random,
 * MEMORY_DIFF_RUNS and MEMORY_DIFF_STEPS for more.
 */
const RUNS = Number(process.env.MEMORY_DIFF_RUNS ?? 12);
const STEPS = Number(process.env.MEMORY_DIFF_STEPS ?? 30);
// A pinned seed by default, so CI is deterministic; MEMORY_DIFF_SEED=random explores.
const SEED_ENV = process.env.MEMORY_DIFF_SEED ?? '20261128';
const SEED = SEED_ENV === 'random' ? Date.now() : Number(SEED_ENV);

/**
 * Every run opens with a hot wallet paying from its funded lanes, so each run exercises the lane writers
 * whatever the random commands after it do (360 random steps can go without one lane debit).
 */
const OPENING: DiffCommand[] = [
  { kind: 'post', from: 'system', to: 0, cents: 5_000 },
  { kind: 'promote', wallet: 0, partitions: 2, lanes: 2 },
  { kind: 'pay', from: 0, to: 1, cents: 100, limit: null },
];

describe('memory-dynamo against DynamoDB Local', () => {
  it('answers and stores the same for random movements, refusals and keeper moves', async () => {
    const local = await createTestTable();
    const memory = createMemoryDynamo({ tables: [local.tableName] });
    const outcomes: Record<string, number> = {};
    let steps = 0;
    console.log(`memory-dynamo differential: seed ${SEED} (reproduce: MEMORY_DIFF_SEED=${SEED})`);
    await fc.assert(
      fc.asyncProperty(fc.array(diffCommandArbitrary, { minLength: STEPS, maxLength: STEPS }), async (commands) => {
        const tag = randomBytes(4).toString('hex');
        const result = await runDifferential(
          { client: memory.client, tableName: local.tableName },
          { client: local.client, tableName: local.tableName },
          tag,
          [...OPENING, ...commands],
        );
        steps += result.steps;
        for (const [key, count] of Object.entries(result.outcomes)) outcomes[key] = (outcomes[key] ?? 0) + count;
        expect(result.mismatch).toBeUndefined();
      }),
      {
        numRuns: RUNS,
        seed: SEED,
        endOnFailure: true,
        ...(process.env.MEMORY_DIFF_PATH ? { path: process.env.MEMORY_DIFF_PATH } : {}),
      },
    );
    console.log(`memory-dynamo differential: ${steps} steps in lockstep; outcomes ${JSON.stringify(outcomes)}`);
    expect(steps).toBe(RUNS * (OPENING.length + STEPS));
    // Core's hot writers ran: debits from a lane, debits by the slow path, credits into an inbox.
    expect(outcomes['route:lane debit']).toBeGreaterThan(0);
    expect(outcomes['route:slow path']).toBeGreaterThan(0);
    expect(outcomes['route:inbox credit']).toBeGreaterThan(0);
  }, 600_000);
});
