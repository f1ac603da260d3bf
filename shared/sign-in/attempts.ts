import type { AttemptCounter } from '../domain/sign-in/ports.js';
import { sha256Hex } from './tokens.js';

/** Failed sign-ins counted in fixed 15-minute windows. */
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

/**
 * Attempt limits: before any password is checked, an email or IP over its limit in this window is
 * refused (the same generic answer, Retry-After the window's end); every failure counts for both.
 */
export function attemptLimits(counter: AttemptCounter) {
  return {
    /** Seconds to wait when over a limit, else undefined. */
    async retryAfter(email: string | undefined, ipAddress: string, now: Date): Promise<number | undefined> {
      const window = windowStartOf(now);
      const keys = attemptKeys(email, ipAddress);
      const [byEmail, byIp] = await Promise.all([
        keys.email === undefined ? 0 : counter.failures(keys.email, window),
        counter.failures(keys.ip, window),
      ]);
      if (byEmail < MAX_FAILURES_PER_EMAIL && byIp < MAX_FAILURES_PER_IP) return undefined;
      return Math.max(1, Math.ceil((Date.parse(window) + WINDOW_MS - now.getTime()) / 1000));
    },
    async fail(email: string | undefined, ipAddress: string, now: Date): Promise<void> {
      const window = windowStartOf(now);
      const expires = Math.ceil((Date.parse(window) + 2 * WINDOW_MS) / 1000);
      const keys = attemptKeys(email, ipAddress);
      await Promise.all([
        keys.email === undefined ? undefined : counter.recordFailure(keys.email, window, expires),
        counter.recordFailure(keys.ip, window, expires),
      ]);
    },
  };
}
