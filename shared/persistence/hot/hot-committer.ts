import { ApiError } from '../../domain/errors.js';
import { laneSequence, LANE_RETRIES, planHotWallet } from '../../domain/ledger/hot/hot-routing.js';
import { walletsOf, type Posting } from '../../domain/ledger/posting.js';
import { transactionKeys } from '../entities/transaction.js';
import { getItem, type TableContext } from '../table-context.js';
import { CONFLICT_RETRY_AFTER_S, transactWrite, type TransactWrite } from '../transact.js';
import { createHotRouting, refreshHotEntries, type HotRouting } from './hot-cache.js';
import {
  hotEntryOf,
  HotMoved,
  HotRoutingStale,
  LaneRefused,
  type HotWalletEntry,
  type HotWalletReads,
  type PostingRoutes,
  type SlowSplit,
  type WriteContext,
} from './hot-routes.js';
import { foldAll } from './fold-moves.js';
import { readHotWallet } from './hot-read.js';
import { slowSplit } from './hot-slow-path.js';

/** Plans of one commit (stale routes, lanes refused, slow-path re-reads) before it answers CONCURRENT_UPDATE. */
export const MAX_ROUTING_ROUNDS = 12;

/** The routing state of tables created without one (tests, scripts): one per table context, as the runtime's. */
const DEFAULT_ROUTING = new WeakMap<TableContext, HotRouting>();

export function hotRoutingOf(table: TableContext): HotRouting {
  if (table.hot) return table.hot;
  let routing = DEFAULT_ROUTING.get(table);
  if (!routing) DEFAULT_ROUTING.set(table, (routing = createHotRouting()));
  return routing;
}

/** The keeper's exact read and inline fold (hot-read.ts, fold-moves.ts) on this table: the slow path's reads unless injected. */
export const keeperReads = (table: TableContext): HotWalletReads => ({
  readHotWallet: (walletId) => readHotWallet(table, walletId),
  foldAll: async (walletId) => {
    await foldAll(table, walletId);
  },
});

/**
 * Commits one transaction built by `build` for the routes of the moment. A cold wallet costs nothing
 * more: no read, the same items. A wallet the cache knows hot is read again only once its entry is
 * older than the TTL. Each failed condition that is a routing signal (a stale route, a lane that
 * refused, a slow path whose items moved) is planned again, bounded; every other failure is the
 * client's answer, as before.
 */
export async function commitRouted(
  table: TableContext,
  build: (context: WriteContext) => TransactWrite[],
  postings: Posting[],
): Promise<void> {
  const routing = hotRoutingOf(table);
  await refreshHotEntries(table, routing, [...new Set(postings.flatMap((posting) => walletsOf(posting.legs)))]);
  const refused = new Map<string, number>();
  const firstLane = new Map<string, number>();
  const splits = new Map<string, SlowSplit>();
  // What this commit routes by, fixed for its whole run (an entry expiring meanwhile must not flip a route).
  const known = new Map<string, HotWalletEntry | undefined>();
  const entryOf = (walletId: string) => {
    if (!known.has(walletId)) known.set(walletId, routing.entryOf(walletId));
    return known.get(walletId);
  };
  const routes: PostingRoutes = {
    hotOf: entryOf,
    laneOf(walletId, transactionId) {
      const lanes = entryOf(walletId)!.hot.lanes;
      if (!firstLane.has(walletId)) firstLane.set(walletId, routing.stickyLane(walletId, lanes) ?? -1);
      const sticky = firstLane.get(walletId)!;
      const sequence = laneSequence(transactionId, lanes, sticky >= 0 ? sticky : undefined);
      return sequence[Math.min(refused.get(walletId) ?? 0, sequence.length - 1)]!;
    },
    splitOf: (walletId) => splits.get(walletId),
  };
  const toSplit = new Set<string>();
  for (let round = 1; ; round++) {
    try {
      for (const walletId of toSplit)
        splits.set(
          walletId,
          await slowPathOf(routing.reads ?? keeperReads(table), entryOf(walletId), postings, walletId).catch(
            (refusal: unknown) => unlessCommitted(table, postings, refusal),
          ),
        );
      toSplit.clear();
      await transactWrite(table.client, build({ routes }), table.transact);
      return;
    } catch (error) {
      if (!(error instanceof HotRoutingStale || error instanceof LaneRefused || error instanceof HotMoved)) throw error;
      if (round >= MAX_ROUTING_ROUNDS)
        throw new ApiError('CONCURRENT_UPDATE', undefined, { retryAfter: CONFLICT_RETRY_AFTER_S });
      const { walletId } = error;
      if (error instanceof HotRoutingStale) {
        routing.remember(walletId, error.item);
        known.set(walletId, hotEntryOf(error.item));
        splits.delete(walletId);
        refused.delete(walletId);
        toSplit.delete(walletId);
      } else if (error instanceof LaneRefused) {
        const count = (refused.get(walletId) ?? 0) + 1;
        refused.set(walletId, count);
        const lanes = entryOf(walletId)?.hot.lanes ?? 0;
        if (error.lane >= 0 && lanes > 0) routing.moveSticky(walletId, lanes);
        if (error.lane < 0 || count > LANE_RETRIES || count >= lanes) toSplit.add(walletId);
      } else {
        toSplit.add(walletId);
      }
    }
  }
}

/**
 * A slow path's refusal (from its exact read, before any transaction) of a movement that committed
 * already (a retry whose first answer was lost): the journal's claim answers, as the cold
 * transaction's would, so the caller replays the record instead of refusing what was done.
 */
async function unlessCommitted(table: TableContext, postings: Posting[], refusal: unknown): Promise<never> {
  if (refusal instanceof ApiError) {
    for (const posting of postings) {
      if (posting.record !== 'create') continue;
      if (await getItem(table, transactionKeys.primary(posting.transactionId)))
        throw new ApiError('IDEMPOTENCY_KEY_IN_USE', `The movement ${posting.transactionId} exists already.`);
    }
  }
  throw refusal;
}

/** The exact split of the posting's debit of `walletId` (the keeper's reads: none configured is CONCURRENT_UPDATE). */
async function slowPathOf(
  reads: HotWalletReads | undefined,
  entry: HotWalletEntry | undefined,
  postings: Posting[],
  walletId: string,
): Promise<SlowSplit> {
  if (!reads || !entry) throw new ApiError('CONCURRENT_UPDATE', undefined, { retryAfter: CONFLICT_RETRY_AFTER_S });
  for (const posting of postings) {
    const legs = posting.legs.filter((leg) => leg.account.kind === 'WALLET' && leg.account.walletId === walletId);
    const plan = planHotWallet(posting.transactionId, walletId, legs, entry.hot);
    if (!plan.debit) continue;
    const spend = posting.spend?.walletId === walletId ? posting.spend : undefined;
    return slowSplit(reads, walletId, plan.debit, spend);
  }
  throw new Error(`no debit of wallet ${walletId} to take the slow path`);
}
