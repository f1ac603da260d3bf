/**
 * The events API's visible-order feed (docs/api.md "Events", polling): each stored event carries
 * `visibleAt`, stamped by the projector when it stores the event (never before its `createdAt`),
 * and the feed lists events in that order, oldest first, after a cursor. A poll answers only
 * events stamped at least FEED_SETTLE_MS ago, and its cursor stops there: an event stamped later
 * than the cursor can not have been readable yet, so polling with the last cursor never skips one.
 */

/** Orders of `GET /v1/events`: `newest` (createdAt, newest first; the default) or `visible` (the feed). */
export const EVENT_ORDERS = ['newest', 'visible'] as const;
export type EventOrder = (typeof EVENT_ORDERS)[number];

/**
 * How old a stamp must be before the feed serves it: the time from the stamp to the event being
 * readable in the feed's index (the store's write, at most FEED_STAMP_BUDGET_MS, then the index
 * following the table, well under a second in DynamoDB), plus clock differences between functions.
 */
export const FEED_SETTLE_MS = 3_000;

/**
 * A store whose write took longer than this after its stamp stamps the event again (a later
 * position, seen by the next polls): a write delayed past the settle time is never skipped.
 */
export const FEED_STAMP_BUDGET_MS = 1_000;

/** The stamp of an event stored at `now`: never before its createdAt (clocks of two functions differ). */
export function visibleStamp(createdAt: string, now: Date): string {
  const stamp = now.toISOString();
  return stamp < createdAt ? createdAt : stamp;
}
