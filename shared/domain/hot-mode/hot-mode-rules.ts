import type { HotConfig } from '../ledger/hot/hot-types.js';

/**
 * When and how big a wallet goes hot (docs/architecture.md "Hot wallets", docs/api.md "Hot
 * wallets"). G = 64 credit partitions (the most, MAX_HOT_PARTITIONS): a credit writes about 3 WCU
 * on its partition (its inbox Put 2 in the payment's transaction, its Delete 1 in a fold), so
 * 5,000 credits/s put about 235 WCU/s on each; a partition's share of credits is a hash's and
 * Poisson's, and at 32 the busiest took 728 WCU/s with 4 WCU a credit (docs/performance.md
 * "Issue 25"). Neither promotion knows the rate to come (a cold wallet's conflicts saturate near
 * 1,000 / h per second), so both take the most; the cost is an exact read's 64 queries. M = 64
 * lanes keep a payer's exhausted retries under 1% at 2,000 debits/s for holds up to 10 ms
 * (sticky lanes cover 25 ms). The keeper gives a small balance fewer funded lanes (its lane
 * sizing), never more than M.
 */
export const HOT_MODE_PARTITIONS = 64;
export const HOT_MODE_LANES = 64;

export interface HotModeSizing {
  partitions: number;
  lanes: number;
}

export const hotModeSizing = (): HotModeSizing => ({ partitions: HOT_MODE_PARTITIONS, lanes: HOT_MODE_LANES });

/**
 * Automatic promotion. The committer counts, per wallet and minute, the attempts DynamoDB cancelled
 * for a conflict (nothing is written while a wallet's transactions succeed first time). A wallet
 * whose conflicted attempts in one complete minute reach this threshold is promoted by the next
 * scheduled keeper run. 120 a minute is 2 a second: far above what a quiet wallet ever sees (a
 * conflict needs two transactions on the item within the hold, a few ms), and far below where
 * retries start to run out (the bench measured 54% of payments exhausted at 50 clients, thousands
 * of conflicts a minute). Only ACTIVE wallets that are not closed and not already hot are promoted.
 */
export const HOT_PROMOTION_CONFLICTS_PER_MINUTE = 120;

/**
 * There is no automatic demotion: a hot wallet costs only the keeper's work when it is quiet (one
 * step a minute), and a wallet that got hot once is likely to again, when a demotion's 60 s window
 * would be in the way. The operator turns hot mode off (`enabled: false`).
 */
export const AUTOMATIC_DEMOTION = false;

/** One wallet's conflicted attempts in one minute, as the committer counted them. */
export interface ConflictCount {
  walletId: string;
  conflicts: number;
}

/** The wallets of one minute's counts that cross the threshold, most conflicted first (deduplicated). */
export function promotionCandidates(
  counts: readonly ConflictCount[],
  threshold = HOT_PROMOTION_CONFLICTS_PER_MINUTE,
): string[] {
  const byWallet = new Map<string, number>();
  for (const { walletId, conflicts } of counts) byWallet.set(walletId, (byWallet.get(walletId) ?? 0) + conflicts);
  return [...byWallet]
    .filter(([, conflicts]) => conflicts >= threshold)
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0))
    .map(([walletId]) => walletId);
}

/** The minute a conflict is counted under (`2026-11-28T03:41`): UTC, so every process agrees. */
export const minuteOf = (at: Date): string => at.toISOString().slice(0, 16);

/** The last complete minute before `now`: what a scheduled run judges. */
export const previousMinuteOf = (now: Date): string => minuteOf(new Date(now.getTime() - 60_000));

/** What the operator sees of a wallet's hot mode: its state and since when (null: cold). */
export interface HotModeStatus {
  state: HotConfig['state'];
  since: string;
  partitions: number;
  lanes: number;
}

export const hotModeStatusOf = (hot: HotConfig | undefined): HotModeStatus | null =>
  hot ? { state: hot.state, since: hot.since, partitions: hot.partitions, lanes: hot.lanes } : null;
