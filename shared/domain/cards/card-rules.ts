import Big from 'big.js';
import { validationError } from '../errors.js';
import { formatAmount, parseAmount } from '../money.js';
import { periodKeyOf, previousPeriodKeyOf } from '../policies/policy-rules.js';
import {
  COUNTED_INTERVALS,
  type CardSpendCounter,
  type CountedInterval,
  type IntervalKey,
  type SpendingInterval,
  type SpendingLimit,
} from './types.js';

/** At most this many spending limits on a card, and categories per limit. */
export const MAX_SPENDING_LIMITS = 10;
export const MAX_LIMIT_CATEGORIES = 50;
const ALL_TIME_KEY = 'all';

/** The key of the calendar interval (UTC) `at` falls in: `2026-11-21`, `2026-W47`, `2026-11`, `2026`, `all`. */
export function intervalKeyOf(interval: CountedInterval, at: Date): string {
  switch (interval) {
    case 'daily':
      return periodKeyOf('DAY', at);
    case 'weekly':
      return periodKeyOf('WEEK', at);
    case 'monthly':
      return periodKeyOf('MONTH', at);
    case 'yearly':
      return String(at.getUTCFullYear());
    case 'all_time':
      return ALL_TIME_KEY;
  }
}

/** The key of the interval just before `at`'s (all_time has none: it never ends). */
export function previousIntervalKeyOf(interval: CountedInterval, at: Date): string | undefined {
  switch (interval) {
    case 'daily':
      return previousPeriodKeyOf('DAY', at);
    case 'weekly':
      return previousPeriodKeyOf('WEEK', at);
    case 'monthly':
      return previousPeriodKeyOf('MONTH', at);
    case 'yearly':
      return String(at.getUTCFullYear() - 1);
    case 'all_time':
      return undefined;
  }
}

/**
 * A card is valid through the last day of its expiry month (UTC), as the networks print it
 * (`11/29` pays until 2029-11-30T23:59:59.999Z): expired from the first instant of the month after.
 */
export function cardExpired(card: { expMonth: number; expYear: number }, at: Date): boolean {
  // Date.UTC's month is 0-based: expMonth itself is the month after the expiry month (12 rolls over to January).
  return at.getTime() >= Date.UTC(card.expYear, card.expMonth, 1);
}

/** A counter still worth keeping at `at`: its interval's current one, or the one just before (an authorization in flight when it turned). */
export function isLiveKey(counter: IntervalKey, at: Date): boolean {
  return (
    counter.key === intervalKeyOf(counter.interval, at) || counter.key === previousIntervalKeyOf(counter.interval, at)
  );
}

/**
 * Spending limits as the request gives them, checked and normalized: amounts by the money rules
 * (INVALID_AMOUNT naming the field), categories lower-cased without duplicates.
 */
export function normalizeSpendingLimits(
  input: readonly { amount: unknown; interval: SpendingInterval; categories?: readonly string[] | undefined }[],
): SpendingLimit[] {
  if (input.length > MAX_SPENDING_LIMITS)
    throw validationError('spendingLimits', `at most ${MAX_SPENDING_LIMITS} limits`);
  return input.map((limit, index) => {
    const amount = parseAmount(limit.amount, { allowNumber: false, field: `spendingLimits[${index}].amount` });
    const categories = limit.categories
      ? [...new Set(limit.categories.map((category) => category.toLowerCase()))]
      : undefined;
    if (categories && categories.length === 0)
      throw validationError(`spendingLimits[${index}].categories`, 'must name at least one category when given');
    return { amount: formatAmount(amount), interval: limit.interval, ...(categories ? { categories } : {}) };
  });
}

/** Every limit with categories is an allow list: the merchant's category must be in each. */
export function categoryAllowed(limits: readonly SpendingLimit[], category: string): boolean {
  const normalized = category.toLowerCase();
  return limits.every((limit) => !limit.categories || limit.categories.includes(normalized));
}

/** The tightest limit of an interval, if any. */
export function limitOf(limits: readonly SpendingLimit[], interval: SpendingInterval): Big | undefined {
  return limits
    .filter((limit) => limit.interval === interval)
    .map((limit) => new Big(limit.amount))
    .reduce<Big | undefined>((min, amount) => (min === undefined || amount.lt(min) ? amount : min), undefined);
}

/** What an authorization adds to the card's counters, within each interval's tightest limit. */
export interface CardSpendCount {
  cardId: string;
  amount: Big;
  intervals: (IntervalKey & { limit?: Big })[];
  /** Counters of intervals that are over, dropped by the same write. */
  stale: IntervalKey[];
  /** The card's version the decision was made on (a concurrent change of limits or status fails the write). */
  version: number;
}

export function cardSpendOf(
  card: { id: string; spendingLimits: SpendingLimit[]; version: number; counters?: CardSpendCounter[] | undefined },
  amount: Big,
  at: Date,
): CardSpendCount {
  const intervals = COUNTED_INTERVALS.map((interval) => {
    const limit = limitOf(card.spendingLimits, interval);
    return { interval, key: intervalKeyOf(interval, at), ...(limit ? { limit } : {}) };
  });
  const stale = (card.counters ?? [])
    .filter((counter) => !isLiveKey(counter, at))
    .map(({ interval, key }) => ({ interval, key }));
  return { cardId: card.id, amount, intervals, stale, version: card.version };
}

/** The spend counted so far in an interval key (zero when the card has no counter for it). */
export function spentIn(counters: readonly CardSpendCounter[] | undefined, key: IntervalKey): Big {
  const found = counters?.find((counter) => counter.interval === key.interval && counter.key === key.key);
  return found ? new Big(found.spent) : new Big(0);
}

/** The first limit this authorization would break, as read (the commit checks the same atomically). */
export function exceededLimit(
  card: { spendingLimits: SpendingLimit[]; counters?: CardSpendCounter[] | undefined },
  spend: Pick<CardSpendCount, 'amount' | 'intervals'>,
): { interval: SpendingInterval; limit: Big } | undefined {
  const perAuthorization = limitOf(card.spendingLimits, 'per_authorization');
  if (perAuthorization && spend.amount.gt(perAuthorization))
    return { interval: 'per_authorization', limit: perAuthorization };
  for (const interval of spend.intervals) {
    if (interval.limit && spentIn(card.counters, interval).plus(spend.amount).gt(interval.limit))
      return { interval: interval.interval, limit: interval.limit };
  }
  return undefined;
}
