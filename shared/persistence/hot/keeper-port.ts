import type { HotModeSizing } from '../../domain/hot-mode/hot-mode-rules.js';
import type { HotConfig } from '../../domain/ledger/hot/hot-types.js';
import type { Item } from '../item.js';
import type { TableContext } from '../table-context.js';

/**
 * The keeper's moves the edges call (the hot-mode switch, the HOT_INBOX stream worker, the
 * scheduled keeper), as one record so a test can pass doubles: bound to part keeper's functions in
 * ./keeper-binding.ts. Each is guarded by `seq`/`folded#g`: repeating one is harmless.
 */
export interface KeeperMoves {
  /** Creates the sub-items, then sets `hot` (idempotent for a hot wallet): the config after the call. */
  promote(table: TableContext, walletId: string, sizing: HotModeSizing): Promise<HotConfig>;
  /** Starts a demotion (COOLING) and returns; `keep` finishes it once the window has passed. */
  demote(table: TableContext, walletId: string): Promise<HotConfig | undefined>;
  /** Folds the named credit partitions into their accumulators, then into main (a closed wallet's are bounced). */
  foldInbox(table: TableContext, walletId: string, partitions: readonly number[]): Promise<void>;
  /** One keeper run over the wallet (lanes, quotas, rollover, the end of a demotion); nothing to do is fine. */
  keep(table: TableContext, walletId: string, now: Date): Promise<void>;
  /** A closed wallet's inbox items not bounced yet (straggler-bounce.ts hasStragglers). */
  hasStragglers(table: TableContext, walletId: string): Promise<boolean>;
  /** main's `hot` (undefined: cold). */
  hotConfigOf(item: Item): HotConfig | undefined;
}
