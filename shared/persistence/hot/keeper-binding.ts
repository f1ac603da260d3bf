import { fixedClock, type Clock } from '../../domain/clock.js';
import { walletKeys } from '../entities/wallet.js';
import { getItem } from '../table-context.js';
import { FOLD_MAX_WAIT_MS, FOLD_MIN_BATCH, foldIntoMain, foldPartition } from './fold-moves.js';
import { hotConfigOf } from './hot-items.js';
import { demote, runKeeperOnce } from './keeper.js';
import type { KeeperMoves } from './keeper-port.js';
import { promote } from './promote.js';
import { registerHotWallet } from './hot-candidates.js';
import { bounceStragglers, hasStragglers } from './straggler-bounce.js';

/** The keeper's moves the runtime uses: part keeper's functions over the clock given. */
export function keeperMoves(clock: Clock): KeeperMoves {
  return {
    promote: (table, walletId, sizing) => promote(table, walletId, sizing, clock),
    demote: (table, walletId) => demote(table, walletId, clock),
    async foldInbox(table, walletId, partitions) {
      const main = await getItem(table, walletKeys.primary(walletId));
      if (!main) return;
      // A closed wallet's stragglers go back to their payers, never into the wallet.
      if (main.deletedAt) {
        const results = await Promise.all(partitions.map((g) => bounceStragglers(table, walletId, g)));
        // A bounce refused (its payer paused meanwhile) is retried by the scheduled keeper: the
        // wallet stays (or is again) in its registry until its inbox is empty.
        if (results.some((result) => result.left > 0))
          await registerHotWallet(table, { walletId, registeredAt: clock.now().toISOString() });
        return;
      }
      // Folds wait for a batch worth its accumulator writes (fold-moves.ts FOLD_MIN_BATCH).
      const when = {
        minBatch: FOLD_MIN_BATCH,
        before: new Date(clock.now().getTime() - FOLD_MAX_WAIT_MS).toISOString(),
      };
      await Promise.all(partitions.map((g) => foldPartition(table, walletId, g, when)));
      await foldIntoMain(table, walletId);
    },
    keep: async (table, walletId, now) => void (await runKeeperOnce(table, walletId, fixedClock(now))),
    hasStragglers,
    hotConfigOf,
  };
}
