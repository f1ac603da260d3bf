import { everyOf } from '../enums.js';
import type { Environment } from '../tenancy.js';
import { RAIL_SETTLEMENT_MS, scaledMs } from '../transfers/transfer-rules.js';

/**
 * The clocks of collecting invoices (docs/api.md "Invoices: collection"), pure: when a bank debit
 * settles, when a recurring charge runs next, when a declined charge is retried. Sandbox durations
 * are divided by TIME_SCALE (decisions.md section 0), production ones are real.
 */

/** A bank debit of an invoice settles on the ACH rail's time (decisions.md section 4: the transfers' rail constant). */
export const INVOICE_ACH_SETTLEMENT_MS = RAIL_SETTLEMENT_MS.ACH;

/** When a bank debit started at `startedAt` settles (never sooner than 1 s: the expiry's own clock). */
export function achSettlesAt(environment: Environment, startedAt: Date, timeScale: number): string {
  const ms = Math.max(1000, scaledMs(environment, INVOICE_ACH_SETTLEMENT_MS, timeScale));
  return new Date(startedAt.getTime() + ms).toISOString();
}

export type RecurringInterval = 'weekly' | 'monthly' | 'quarterly' | 'yearly';
export const RECURRING_INTERVALS = everyOf<RecurringInterval>()(['weekly', 'monthly', 'quarterly', 'yearly']);

/** ACTIVE: charges run; CANCELLED: stopped by the merchant; ENDED: past `endAt` (or its invoice can no longer be charged). */
export type RecurringStatus = 'ACTIVE' | 'CANCELLED' | 'ENDED';
export const RECURRING_STATUSES = everyOf<RecurringStatus>()(['ACTIVE', 'CANCELLED', 'ENDED']);

const MONTHS_OF: Record<Exclude<RecurringInterval, 'weekly'>, number> = { monthly: 1, quarterly: 3, yearly: 12 };
const DAY_MS = 24 * 3600_000;

/**
 * `months` calendar months after `anchor` (UTC), the day clamped to the target month's last day:
 * Jan 31 + 1 month = Feb 28 (29), + 2 months = Mar 31. Always counted from the anchor, never
 * chained, so a clamped month does not shift the months after it.
 */
export function addCalendarMonths(anchor: Date, months: number): Date {
  const year = anchor.getUTCFullYear();
  const month = anchor.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const day = Math.min(anchor.getUTCDate(), lastDay);
  return new Date(
    Date.UTC(
      year,
      month,
      day,
      anchor.getUTCHours(),
      anchor.getUTCMinutes(),
      anchor.getUTCSeconds(),
      anchor.getUTCMilliseconds(),
    ),
  );
}

/** The calendar date of charge number `run` (1 = the first charge, at `anchor`). */
export function calendarChargeAt(interval: RecurringInterval, anchor: Date, run: number): Date {
  if (!Number.isInteger(run) || run < 1) throw new Error(`a run is a positive integer: ${run}`);
  if (interval === 'weekly') return new Date(anchor.getTime() + (run - 1) * 7 * DAY_MS);
  return addCalendarMonths(anchor, (run - 1) * MONTHS_OF[interval]);
}

/**
 * When charge number `run` is due: its calendar date in production; in the sandbox the calendar
 * distance from the anchor divided by TIME_SCALE (so weekly at TIME_SCALE 604,800 is one second
 * per week, and months keep their uneven lengths).
 */
export function recurringChargeAt(
  environment: Environment,
  interval: RecurringInterval,
  anchor: Date,
  run: number,
  timeScale: number,
): string {
  const offset = calendarChargeAt(interval, anchor, run).getTime() - anchor.getTime();
  return new Date(anchor.getTime() + (run === 1 ? 0 : scaledMs(environment, offset, timeScale))).toISOString();
}

/** Whether charge `run` (due at `dueAt`) still runs under `endAt` (inclusive; no endAt: forever until cancelled). */
export const runsBefore = (dueAt: string, endAt: string | undefined): boolean =>
  endAt === undefined || Date.parse(dueAt) <= Date.parse(endAt);

/**
 * The retry plan of a declined charge: retried 3 times, 1, 3 and 7 days after the first failure
 * (7 days in all); after the third retry fails the invoice is UNCOLLECTIBLE.
 */
export const RETRY_DAYS = [1, 3, 7] as const;
export const MAX_CHARGE_RETRIES = RETRY_DAYS.length;

/**
 * What follows failure number `failures` (1 = the first charge declined, 2..4 = retries 1..3),
 * the first failing at `firstFailedAt`: the next retry (its number and time) or the end.
 */
export function afterChargeFailure(
  environment: Environment,
  firstFailedAt: Date,
  failures: number,
  timeScale: number,
): { retry: number; at: string } | { uncollectible: true } {
  if (!Number.isInteger(failures) || failures < 1) throw new Error(`failures is a positive integer: ${failures}`);
  if (failures > MAX_CHARGE_RETRIES) return { uncollectible: true };
  const days = RETRY_DAYS[failures - 1]!;
  // No floor of a second here: the retries keep their order however large TIME_SCALE is.
  const ms = scaledMs(environment, days * DAY_MS, timeScale);
  return { retry: failures, at: new Date(firstFailedAt.getTime() + ms).toISOString() };
}
