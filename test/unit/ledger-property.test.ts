import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../shared/domain/clock.js';
import { ApiError } from '../../shared/domain/errors.js';
import { newId } from '../../shared/domain/ids.js';
import { ledgerInvariants } from '../../shared/domain/ledger/ledger-invariants.js';
import { createLedgerService } from '../../shared/domain/ledger/ledger-service.js';
import type { Wallet } from '../../shared/domain/types.js';
import { createInMemoryLedger, LostResponse } from '../fixtures/in-memory-ledger.js';
import {
  LEDGER_WALLETS,
  ledgerCommandArbitrary,
  newLedgerRunStats,
  runLedgerSequence,
  type LedgerRunStats,
  type LedgerWorld,
} from '../fixtures/ledger-ops.js';

/**
 * The ledger's movements over an in-memory fake of its port that enforces the posting writer's
 * conditions, with faults: 25 % of the commit attempts are cancelled by a TransactionConflict
 * (the adapter's retry runs, and some movements outlast it: 409 CONCURRENT_UPDATE, retried by the
 * client), 5 % of the commits that apply lose their answer (retried by the client with the same
 * movement id). 10,000 random operations in all; the same sequences run against DynamoDB Local,
 * fewer, in test/integration/ledger-movements.test.ts.
 *
 * Reproduce: LEDGER_MOVES_SEED=<seed> (and LEDGER_MOVES_PATH=<path>) as fast-check prints them.
 */
const RUNS = Number(process.env.LEDGER_MOVES_RUNS ?? 100);
const STEPS = Number(process.env.LEDGER_MOVES_STEPS ?? 100);
const SEED = process.env.LEDGER_MOVES_SEED === undefined ? undefined : Number(process.env.LEDGER_MOVES_SEED);
const PATH = process.env.LEDGER_MOVES_PATH;
const scope = { organizationId: 'org_property', environment: 'SANDBOX' as const };

function inMemoryWorld(seed: number): { world: LedgerWorld; stats: ReturnType<typeof createInMemoryLedger>['stats'] } {
  let state = seed >>> 0 || 1;
  // A small PRNG of the run's own (xorshift32): faults are reproducible with the sequence.
  const random = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
  const fake = createInMemoryLedger({ faults: { conflictRate: 0.25, lostResponseRate: 0.05, random } });
  const walletIds = Array.from({ length: LEDGER_WALLETS }, () => newId('wallet'));
  for (const id of walletIds) fake.addWallet(id, scope);
  const world: LedgerWorld = {
    ledger: createLedgerService({
      store: fake.store,
      clock: fixedClock(new Date('2026-11-21T10:00:00.000Z')),
      ids: newId,
    }),
    scope,
    walletIds,
    newMovementId: () => newId('transaction'),
    retryable: (error) =>
      error instanceof LostResponse || (error instanceof ApiError && error.code === 'CONCURRENT_UPDATE'),
    async inspect() {
      const wallets: Wallet[] = await Promise.all(walletIds.map(async (id) => (await fake.store.getWallet(id))!));
      return {
        balances: wallets.map((wallet) => ({ available: wallet.balance, held: wallet.heldBalance })),
        movements: fake.journal.size,
        report: ledgerInvariants(wallets, [...fake.journal.values()]),
      };
    },
  };
  return { world, stats: fake.stats };
}

describe('ledger movements (in-memory fake of the ledger port, with faults)', () => {
  it('keeps the invariants over 10,000 random post/hold/capture/void/reverse operations with injected TransactionConflict and lost answers', async () => {
    const stats: LedgerRunStats = newLedgerRunStats();
    const faults = { conflicts: 0, lostResponses: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.array(ledgerCommandArbitrary, { minLength: STEPS, maxLength: STEPS }),
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        async (commands, faultSeed) => {
          const { world, stats: fakeStats } = inMemoryWorld(faultSeed);
          const before = stats.violations.length;
          await runLedgerSequence(world, commands, stats);
          faults.conflicts += fakeStats.conflicts;
          faults.lostResponses += fakeStats.lostResponses;
          expect(stats.violations.slice(before)).toEqual([]);
        },
      ),
      { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }), ...(PATH === undefined ? {} : { path: PATH }) },
    );
    console.log(
      `ledger movements (in-memory): ${stats.operations} operations, ${faults.conflicts} TransactionConflicts and ${faults.lostResponses} lost answers injected, ` +
        `${stats.clientRetries} client retries, ${stats.checks} checks, ${stats.violations.length} violations; outcomes ${JSON.stringify(stats.outcomes)}`,
    );
    expect(stats.operations).toBeGreaterThanOrEqual(RUNS * STEPS);
    expect(stats.violations).toEqual([]);
  }, 120_000);
});
