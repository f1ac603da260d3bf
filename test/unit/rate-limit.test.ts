import { describe, expect, it } from 'vitest';
import { createRateLimiter, type RateDecision, type RateLimits } from '../../shared/edge/rate-limit.js';

/** decisions.md section 9: 100 per second, 6,000 per minute per key. */
const SPEC_LIMITS: RateLimits = { perSecond: 100, perMinute: 6000 };
/** A whole minute in epoch time, so second and minute windows start together. */
const MINUTE_START_MS = Date.UTC(2025, 0, 1, 12, 0, 0);

function fakeClock(startMs = MINUTE_START_MS) {
  let nowMs = startMs;
  return {
    now: () => nowMs,
    set: (ms: number) => {
      nowMs = ms;
    },
    advance: (ms: number) => {
      nowMs += ms;
    },
  };
}

function callTimes(check: (key: string) => RateDecision, key: string, times: number): RateDecision[] {
  return Array.from({ length: times }, () => check(key));
}

describe('rate limiter', () => {
  it('allows 100 requests within one second', () => {
    const clock = fakeClock();
    const check = createRateLimiter(SPEC_LIMITS, clock.now);
    const decisions = callTimes(check, 'key:a', 100);
    expect(decisions.every((d) => d.allowed && d.retryAfterS === 0)).toBe(true);
  });

  it('refuses the 101st request within one second with a retry after of at least one second', () => {
    // Prepare
    const clock = fakeClock(MINUTE_START_MS + 200);
    const check = createRateLimiter(SPEC_LIMITS, clock.now);
    callTimes(check, 'key:a', 100);
    // Act
    clock.advance(500);
    const decision = check('key:a');
    // Assess
    expect(decision.allowed).toBe(false);
    expect(decision.retryAfterS).toBeGreaterThanOrEqual(1);
  });

  it('allows again in the next second', () => {
    const clock = fakeClock();
    const check = createRateLimiter(SPEC_LIMITS, clock.now);
    callTimes(check, 'key:a', 101);
    clock.advance(1000);
    expect(check('key:a').allowed).toBe(true);
  });

  it('does not count refused requests against the next second', () => {
    const clock = fakeClock();
    const check = createRateLimiter({ perSecond: 2, perMinute: 100 }, clock.now);
    callTimes(check, 'key:a', 10);
    clock.advance(1000);
    expect(callTimes(check, 'key:a', 2).every((d) => d.allowed)).toBe(true);
    expect(check('key:a').allowed).toBe(false);
  });

  it('refuses above the per-minute limit until the minute ends', () => {
    // Prepare: 100 per second, 250 per minute
    const clock = fakeClock();
    const check = createRateLimiter({ perSecond: 100, perMinute: 250 }, clock.now);
    callTimes(check, 'key:a', 100);
    clock.advance(1000);
    callTimes(check, 'key:a', 100);
    clock.advance(1000);
    expect(callTimes(check, 'key:a', 50).every((d) => d.allowed)).toBe(true);
    // Act: 2.5 s into the minute, the 251st request
    clock.advance(500);
    const decision = check('key:a');
    // Assess: 57.5 s remain, so the client waits 58 s (never less than the remaining time)
    expect(decision.allowed).toBe(false);
    expect(decision.retryAfterS).toBeGreaterThanOrEqual(57.5);
    expect(decision.retryAfterS).toBeLessThanOrEqual(60);
  });

  it('still refuses in a later second of the same minute and allows in the next minute', () => {
    const clock = fakeClock();
    const check = createRateLimiter({ perSecond: 100, perMinute: 150 }, clock.now);
    callTimes(check, 'key:a', 100);
    clock.advance(1000);
    callTimes(check, 'key:a', 50);
    clock.set(MINUTE_START_MS + 59_900);
    const late = check('key:a');
    expect(late.allowed).toBe(false);
    expect(late.retryAfterS).toBeGreaterThanOrEqual(1);
    expect(late.retryAfterS).toBeLessThanOrEqual(1);
    clock.set(MINUTE_START_MS + 60_000);
    expect(check('key:a').allowed).toBe(true);
  });

  it('reports the per-minute wait when both limits are reached', () => {
    const clock = fakeClock();
    const check = createRateLimiter({ perSecond: 10, perMinute: 10 }, clock.now);
    callTimes(check, 'key:a', 10);
    const decision = check('key:a');
    expect(decision.allowed).toBe(false);
    expect(decision.retryAfterS).toBe(60);
  });

  it('keeps the counts of different keys independent', () => {
    const clock = fakeClock();
    const check = createRateLimiter(SPEC_LIMITS, clock.now);
    callTimes(check, 'key:a', 100);
    expect(check('key:a').allowed).toBe(false);
    expect(callTimes(check, 'key:b', 100).every((d) => d.allowed)).toBe(true);
    expect(check('ip:203.0.113.1').allowed).toBe(true);
  });

  it('keeps separate limiters independent', () => {
    const clock = fakeClock();
    const keys = createRateLimiter(SPEC_LIMITS, clock.now);
    const publicRoutes = createRateLimiter({ perSecond: 20, perMinute: 1200 }, clock.now);
    callTimes(publicRoutes, 'x', 20);
    expect(publicRoutes('x').allowed).toBe(false);
    expect(keys('x').allowed).toBe(true);
  });
});
