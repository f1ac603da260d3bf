import { ApiError } from '../../domain/errors.js';
import { laneSequence, LANE_RETRIES, planHotWallet } from '../../domain/ledger/hot/hot-routing.js';
import { walletsOf, type Posting } from '../../domain/ledger/posting.js';
import { transactionKeys } from '../entities/transaction.js';
import { getItem, type TableContext } from '../table-context.js';
import { CONFLICT_RETRY_AFTER_S, TransactionConflictError, transactWrite, type TransactWrite } from '../transact.js';
import { createHotRouting, refreshHotEntries, type HotRouting } from './hot-cache.js';
import { prepareHotClose } from './hot-close.js';
import {
  HotCloseDue,
  hotEntryOf,
  HotMoved,
  HotRoutingStale,
  LaneRefused,
  type HotCloseRead,
  type HotWalletEntry,
  type HotWalletReads,
  type PostingRoutes,
  type SlowSplit,
  type WriteContext,
} from './hot-routes.js';
import { foldAll } from './fold-moves.js';
import { readHotWallet } from './hot-read.js';
import { hotKeys } from '../entities/hot-wallet.js';
import { slowSplit } from './hot-slow-path.js';

/** Plans of one commit (stale routes, lanes refused, slow-path re-reads) before it answers CONCURRENT_UPDATE. */
export const MAX_ROUTING_ROUNDS = 12;

/**
 * Rounds of attempts a commit may run again when the last attempt of a round met a TransactionConflict
 * on hot lanes only: other processes' debits held the lanes it tried (more processes than lanes), not
 * contention on one item, and each new attempt takes another lane, at once (no backoff: nothing to
 * wait for). So a debit tries at most (1 + LANE_CONFLICT_ROUNDS) x CONFLICT_RETRY_LIMIT lanes. Five: at
 * h = 25 ms, 2,000 debits/s keep ~78 % of 64 lanes held, a random lane is free about one time in five,
 * and 20 tries left 0.3 % exhausted where 30 leave none (docs/performance.md, Issue 25, re-run 2026-11-28).
 */
export const LANE_CONFLICT_ROUNDS = 5;

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
  const splits = new Map<string, SlowSplit>();
  // Closes of hot wallets: prepared (frozen, drained, folded, read) before their transaction is built.
  const closes = new Map<string, HotCloseRead>();
  const toClose = new Map<string, HotCloseDue>();
  // What this commit routes by, fixed for its whole run (an entry expiring meanwhile must not flip a route).
  const known = new Map<string, HotWalletEntry | undefined>();
  const entryOf = (walletId: string) => {
    if (!known.has(walletId)) known.set(walletId, routing.entryOf(walletId));
    return known.get(walletId);
  };
  // The lanes the attempt being built takes, per wallet and movement (one item written once per transaction).
  const chosen = new Map<string, Map<string, number>>();
  // Per wallet: attempts a TransactionConflict on its lane cancelled (a hash-chosen lane steps past them).
  const laneConflicts = new Map<string, number>();
  const routes: PostingRoutes = {
    hotOf: entryOf,
    laneOf(walletId, transactionId) {
      const lanes = entryOf(walletId)!.hot.lanes;
      let taken = chosen.get(walletId);
      if (!taken) chosen.set(walletId, (taken = new Map()));
      const again = taken.get(transactionId);
      if (again !== undefined) return again;
      let lane = firstLaneOf(routing, walletId, transactionId, lanes, refused.get(walletId) ?? 0, laneConflicts);
      // Two movements of one wallet in one transaction take two lanes.
      const used = new Set(taken.values());
      for (let i = 0; i < lanes && used.has(lane); i++) lane = (lane + 1) % lanes;
      taken.set(transactionId, lane);
      return lane;
    },
    splitOf: (walletId) => splits.get(walletId),
    closeOf: (walletId) => closes.get(walletId),
  };
  let sent: TransactWrite[] = [];
  // Whether the last conflict of the current round was on lanes only (a TransactionConflict naming only lanes).
  let lanesOnly = true;
  let laneRounds = 0;
  const backoff = table.transact?.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const transact = {
    ...table.transact,
    // After a conflict on lanes only the next attempt takes another lane at once: nothing to wait for.
    sleep: (ms: number) => (lanesOnly ? Promise.resolve() : backoff(ms)),
    onConflict(cause: unknown) {
      const { lanes, others } = conflictedLanes(chosen, sent, cause);
      lanesOnly = !others;
      for (const [walletId, lane] of lanes) {
        laneConflicts.set(walletId, (laneConflicts.get(walletId) ?? 0) + 1);
        routing.laneConflicted(walletId, lane, entryOf(walletId)?.hot.lanes ?? 0);
      }
      table.transact?.onConflict?.(cause);
    },
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
      for (const [walletId, due] of toClose)
        closes.set(walletId, await prepareHotClose(table, walletId, due.expectedBalance, due.expectedActiveKeyId));
      toClose.clear();
      // Built again for every attempt: after a TransactionConflict on a lane the next attempt takes another.
      await transactWrite(
        table.client,
        () => {
          chosen.clear();
          return (sent = build({ routes }));
        },
        transact,
      );
      return;
    } catch (error) {
      if (error instanceof TransactionConflictError && lanesOnly && laneRounds < LANE_CONFLICT_ROUNDS) {
        laneRounds++;
        continue;
      }
      if (!(
        error instanceof HotRoutingStale ||
        error instanceof LaneRefused ||
        error instanceof HotMoved ||
        error instanceof HotCloseDue
      ))
        throw error;
      if (round >= MAX_ROUTING_ROUNDS)
        throw new ApiError('CONCURRENT_UPDATE', undefined, { retryAfter: CONFLICT_RETRY_AFTER_S });
      const { walletId } = error;
      if (error instanceof HotRoutingStale) {
        routing.remember(walletId, error.item);
        known.set(walletId, hotEntryOf(error.item));
        splits.delete(walletId);
        refused.delete(walletId);
        toSplit.delete(walletId);
        closes.delete(walletId);
        toClose.delete(walletId);
      } else if (error instanceof HotCloseDue) {
        closes.delete(walletId);
        toClose.set(walletId, error);
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

/**
 * The lane a debit tries first: the process's sticky lane when it has one (a refusal moved it on by
 * one, a conflict elsewhere: hot-cache.ts), else the movement id's hash, `refusals` lanes on (the
 * next lanes after a refusal, design 2.2) and one more per attempt a conflict on the lane cancelled.
 */
function firstLaneOf(
  routing: HotRouting,
  walletId: string,
  transactionId: string,
  lanes: number,
  refusals: number,
  laneConflicts: ReadonlyMap<string, number>,
): number {
  const sticky = routing.stickyLane(walletId, lanes);
  if (sticky !== undefined) return sticky;
  const sequence = laneSequence(transactionId, lanes);
  return (sequence[Math.min(refusals, sequence.length - 1)]! + (laneConflicts.get(walletId) ?? 0)) % lanes;
}

/**
 * The lanes of the last attempt that its TransactionConflict names (the cancellation reasons, by the
 * position of the lane's write), and whether it names any other item; a conflict that names no item
 * (an injected one) counts against every lane the attempt took, and as another item.
 */
function conflictedLanes(
  chosen: ReadonlyMap<string, ReadonlyMap<string, number>>,
  writes: readonly TransactWrite[],
  cause: unknown,
): { lanes: [string, number][]; others: boolean } {
  const taken = [...chosen].flatMap(([walletId, lanes]) =>
    [...lanes.values()].map((lane): [string, number] => [walletId, lane]),
  );
  const reasons = (cause as { CancellationReasons?: { Code?: string }[] } | undefined)?.CancellationReasons;
  if (!reasons?.some((reason) => reason.Code === 'TransactionConflict')) return { lanes: taken, others: true };
  const conflicted = new Set(
    writes.flatMap(({ item }, index) =>
      reasons[index]?.Code === 'TransactionConflict' ? [String((item.Update?.Key ?? item.Put?.Item)?.PK)] : [],
    ),
  );
  const lanes = taken.filter(([walletId, lane]) => conflicted.has(hotKeys.lane(walletId, lane).PK));
  return { lanes, others: conflicted.size > lanes.length };
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
