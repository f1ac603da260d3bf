import { SESSION_ABSOLUTE_HOURS, SESSION_IDLE_MINUTES, STEP_UP_WINDOW_MINUTES, type StoredSession } from './types.js';

const MINUTE_MS = 60_000;
/** lastSeenAt is written at most once a minute (a page's polling would otherwise write every request). */
export const TOUCH_INTERVAL_MS = MINUTE_MS;

/** Whether the session is over: revoked, idle for 30 minutes, or past its 12 hours. */
export function sessionEnded(session: StoredSession, now: Date): boolean {
  if (session.revokedAt !== undefined) return true;
  if (now.getTime() >= Date.parse(session.expiresAt)) return true;
  return now.getTime() - Date.parse(session.lastSeenAt) >= SESSION_IDLE_MINUTES * MINUTE_MS;
}

export const absoluteEndOf = (createdAt: Date): string =>
  new Date(createdAt.getTime() + SESSION_ABSOLUTE_HOURS * 60 * MINUTE_MS).toISOString();

export const needsTouch = (session: StoredSession, now: Date): boolean =>
  now.getTime() - Date.parse(session.lastSeenAt) >= TOUCH_INTERVAL_MS;

/** Whether the second factor was proven within the step-up window. */
export function verifiedWithin(session: Pick<StoredSession, 'verifiedAt'>, now: Date): boolean {
  if (session.verifiedAt === undefined) return false;
  const age = now.getTime() - Date.parse(session.verifiedAt);
  return age >= 0 && age < STEP_UP_WINDOW_MINUTES * MINUTE_MS;
}
