import type { AttemptCounter } from '../domain/sign-in/ports.js';
import { sha256Hex } from './tokens.js';

/** Sign-in attempts counted in fixed 15-minute windows. */
export const ATTEMPT_WINDOW_MINUTES = 15;
/** Per email (whatever the organization): then that email waits for the next window. */
export const MAX_FAILURES_PER_EMAIL = 5;
/** Per client IP (a shared office network signs in often; a guesser tries many emails). */
export const MAX_FAILURES_PER_IP = 20;

const WINDOW_MS = ATTEMPT_WINDOW_MINUTES * 60_000;

export const windowStartOf = (now: Date): string =>
  new Date(Math.floor(now.getTime() / WINDOW_MS) * WINDOW_MS).toISOString();

/** The counters' keys: the email hashed (no address in a key), the IP as it is. */
export const attemptKeys = (email: string | undefined, ipAddress: string) => ({
  ...(email === undefined ? {} : { email: `email:${sha256Hex(email)}` }),
  ip: `ip:${ipAddress}`,
});

/** A reserved attempt: given back when the sign-in succeeds. */
export interface Reservation {
  release(): Promise<void>;
}

/**
 * Attempt limits: BEFORE any password is checked, the attempt is reserved on the IP's counter and
 * the email's (a conditional update each: under the limit, add one). Over a limit the attempt is
 * refused (the same generic answer, Retry-After the window's end) and nothing is checked, so
 * concurrent guesses can not pass the limit. A failure keeps its reservation (it is the failure
 * counted); a success gives it back (successes do not count).
 */
export function attemptLimits(counter: AttemptCounter) {
  return {
    /** A reservation, or the seconds to wait when over a limit. */
    async reserve(
      email: string | undefined,
      ipAddress: string,
      now: Date,
    ): Promise<{ ok: true; reservation: Reservation } | { ok: false; retryAfterS: number }> {
      const window = windowStartOf(now);
      const expires = Math.ceil((Date.parse(window) + 2 * WINDOW_MS) / 1000);
      const keys = attemptKeys(email, ipAddress);
      const retryAfterS = Math.max(1, Math.ceil((Date.parse(window) + WINDOW_MS - now.getTime()) / 1000));
      if (!(await counter.reserveAttempt(keys.ip, window, MAX_FAILURES_PER_IP, expires))) {
        return { ok: false, retryAfterS };
      }
      if (
        keys.email !== undefined &&
        !(await counter.reserveAttempt(keys.email, window, MAX_FAILURES_PER_EMAIL, expires))
      ) {
        await counter.releaseAttempt(keys.ip, window);
        return { ok: false, retryAfterS };
      }
      const reservation: Reservation = {
        async release() {
          await Promise.all([
            counter.releaseAttempt(keys.ip, window),
            keys.email === undefined ? undefined : counter.releaseAttempt(keys.email, window),
          ]);
        },
      };
      return { ok: true, reservation };
    },
  };
}
