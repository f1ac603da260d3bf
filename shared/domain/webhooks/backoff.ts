/**
 * The retry schedule of a webhook delivery (decisions.md section 8): exponential backoff with
 * "equal jitter" (half fixed, half random), so each gap is longer than the one before until the
 * cap, and receivers recovering from an outage are not hit by every sender at once. Retries stop
 * once the next attempt would fall after the window (3 days from the first attempt); in sandbox
 * every duration is divided by TIME_SCALE.
 */
export const RETRY_BASE_MS = 30_000;
export const RETRY_CAP_MS = 6 * 3600_000;
export const RETRY_WINDOW_MS = 3 * 24 * 3600_000;
export const DELIVERY_TIMEOUT_MS = 10_000;

/** Delay after the `attempt`-th failed attempt (1-based), unscaled. `random` in [0, 1). */
export function retryDelayMs(attempt: number, random: number = Math.random()): number {
  const ceiling = Math.min(RETRY_BASE_MS * 2 ** Math.max(0, attempt - 1), RETRY_CAP_MS);
  return ceiling / 2 + (ceiling / 2) * random;
}

/**
 * When to try again after a failed attempt, or null when the window is over (dead-lettered).
 * `scale` divides every duration (TIME_SCALE in sandbox, 1 in production).
 */
export function nextAttemptAt(input: {
  attempt: number;
  firstAttemptAt: number;
  now: number;
  scale: number;
  random?: number;
}): number | null {
  const next = input.now + retryDelayMs(input.attempt, input.random) / input.scale;
  return next - input.firstAttemptAt > RETRY_WINDOW_MS / input.scale ? null : next;
}
