/**
 * Per-key request limits (decisions.md section 9): fixed one-second and one-minute windows.
 * State lives in the process: exact for the local server; in AWS each warm function instance
 * enforces it for the requests it serves, and API Gateway stage throttling caps the total.
 */
export interface RateLimits {
  perSecond: number;
  perMinute: number;
}

export interface RateDecision {
  allowed: boolean;
  retryAfterS: number;
}

const MAX_TRACKED_KEYS = 10_000;

export function createRateLimiter(limits: RateLimits, now: () => number = Date.now) {
  const windows = new Map<string, { second: number; secondCount: number; minute: number; minuteCount: number }>();

  return function check(key: string): RateDecision {
    const ms = now();
    const second = Math.floor(ms / 1000);
    const minute = Math.floor(ms / 60_000);
    let state = windows.get(key);
    if (!state) {
      if (windows.size >= MAX_TRACKED_KEYS) {
        // Forget keys idle since an earlier minute first; only a full minute of distinct keys clears all.
        for (const [name, w] of windows) if (w.minute !== minute) windows.delete(name);
        if (windows.size >= MAX_TRACKED_KEYS) windows.clear();
      }
      state = { second, secondCount: 0, minute, minuteCount: 0 };
      windows.set(key, state);
    }
    if (state.second !== second) Object.assign(state, { second, secondCount: 0 });
    if (state.minute !== minute) Object.assign(state, { minute, minuteCount: 0 });
    if (state.minuteCount >= limits.perMinute)
      return { allowed: false, retryAfterS: (minute + 1) * 60 - Math.floor(ms / 1000) };
    if (state.secondCount >= limits.perSecond) return { allowed: false, retryAfterS: 1 };
    state.secondCount++;
    state.minuteCount++;
    return { allowed: true, retryAfterS: 0 };
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
