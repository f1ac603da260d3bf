import type Big from 'big.js';
import type { SpendCount } from '../ledger/posting.js';
import { periodKeyOf, previousPeriodKeyOf } from './policy-rules.js';
import type { Period, PeriodLimitCheck, SpendCounter } from './policy-types.js';

/**
 * A wallet's period spend (decisions.md section 3), counted on the wallet item by the posting that
 * moves the money: what a payment, a withdrawal's hold or a card authorization adds, and what a
 * released hold gives back.
 */
const PERIODS: readonly Period[] = ['DAY', 'WEEK', 'MONTH'];

/**
 * What a payment adds to its paying wallet's spend: every calendar period, whether or not a
 * policy limits it (a limit added later counts what was spent before it, decisions.md section 3),
 * each within its tightest limit. Counters of periods that ended are dropped, except the one just
 * before the current period: a payment of that period still in flight when the period turned must
 * find its counter (a missing counter counts as zero spent), or it could exceed the limit.
 */
export function spendOf(
  walletId: string,
  amount: Big,
  at: Date,
  limits: PeriodLimitCheck[],
  stored: SpendCounter[],
  policyVersion?: number,
): SpendCount {
  const periods = PERIODS.map((period) => {
    const limit = limits.find((check) => check.period === period)?.limit;
    return { period, periodKey: periodKeyOf(period, at), ...(limit ? { limit } : {}) };
  });
  const kept = (counter: SpendCounter) =>
    counter.periodKey === periodKeyOf(counter.period, at) ||
    counter.periodKey === previousPeriodKeyOf(counter.period, at);
  const stale = stored.filter((counter) => !kept(counter)).map(({ period, periodKey }) => ({ period, periodKey }));
  return { walletId, amount, periods, stale, ...(policyVersion !== undefined ? { policyVersion } : {}) };
}

/**
 * The spend a released hold gives back to its wallet (a withdrawal that failed or was cancelled, a
 * card authorization reversed or captured for less): `amount` off the counters of the periods it
 * was counted in (`countedAt`), those still kept (the current and the previous one); a counter of
 * a period already dropped has nothing to give back. No limit applies to a give-back.
 */
export function spendReturned(walletId: string, amount: Big, countedAt: Date, now: Date): SpendCount | undefined {
  const periods = PERIODS.map((period) => ({ period, periodKey: periodKeyOf(period, countedAt) })).filter(
    ({ period, periodKey }) => periodKey === periodKeyOf(period, now) || periodKey === previousPeriodKeyOf(period, now),
  );
  return periods.length === 0 ? undefined : { walletId, amount: amount.times(-1), periods, stale: [] };
}
