import { describe, expect, it } from 'vitest';
import { passwordProblem } from '../../shared/domain/sign-in/password-rules.js';
import { absoluteEndOf, needsTouch, sessionEnded, verifiedWithin } from '../../shared/domain/sign-in/sessions.js';
import type { StoredSession } from '../../shared/domain/sign-in/types.js';
import { validTotpSecret } from '../../shared/sign-in/totp.js';
import { attemptLimits, MAX_FAILURES_PER_EMAIL, MAX_FAILURES_PER_IP } from '../../shared/sign-in/attempts.js';

const at = (iso: string) => new Date(iso);
const START = '2026-06-01T08:00:00.000Z';

function session(overrides: Partial<StoredSession> = {}): StoredSession {
  return {
    id: 'ses_1',
    hash: 'h',
    userId: 'usr_1',
    email: 'a@example.test',
    role: 'viewer',
    organizationId: 'org_1',
    environment: 'SANDBOX',
    csrfToken: 'c',
    createdAt: START,
    lastSeenAt: START,
    expiresAt: absoluteEndOf(at(START)),
    ipAddress: '127.0.0.1',
    userAgent: 'test',
    ...overrides,
  };
}

describe('password rules', () => {
  const email = 'river.walker@example.test';
  it('accepts a long passphrase', () => {
    expect(passwordProblem('a long walk by the river 42', email)).toBeUndefined();
  });
  it('refuses fewer than 12 characters (counted as characters, not UTF-16 units)', () => {
    expect(passwordProblem('short pass1', email)).toMatch(/at least 12/);
    expect(passwordProblem('😀'.repeat(11), email)).toMatch(/at least 12/);
  });
  it('refuses more than 256 characters', () => {
    expect(passwordProblem('x'.repeat(257), email)).toMatch(/at most 256/);
  });
  it('refuses the email and its name part', () => {
    expect(passwordProblem(email, email)).toMatch(/email/);
    expect(passwordProblem('River.Walker!!!!', email)).toMatch(/email/);
  });
  it('refuses a common password, whatever its case and the digits or symbols at its ends', () => {
    expect(passwordProblem('Password1234!', 'x@example.test')).toMatch(/too common/);
  });
});

describe('session expiry', () => {
  it('is open until 30 minutes without a request', () => {
    expect(sessionEnded(session(), at('2026-06-01T08:29:59.999Z'))).toBe(false);
    expect(sessionEnded(session(), at('2026-06-01T08:30:00.000Z'))).toBe(true);
  });
  it('ends 12 hours after sign-in however active', () => {
    const active = session({ lastSeenAt: '2026-06-01T19:59:00.000Z' });
    expect(sessionEnded(active, at('2026-06-01T19:59:59.999Z'))).toBe(false);
    expect(sessionEnded(active, at('2026-06-01T20:00:00.000Z'))).toBe(true);
  });
  it('ends when revoked', () => {
    expect(sessionEnded(session({ revokedAt: START }), at(START))).toBe(true);
  });
  it('records activity at most once a minute', () => {
    expect(needsTouch(session(), at('2026-06-01T08:00:59.000Z'))).toBe(false);
    expect(needsTouch(session(), at('2026-06-01T08:01:00.000Z'))).toBe(true);
  });
  it('counts a step-up for 5 minutes', () => {
    expect(verifiedWithin({ verifiedAt: START }, at('2026-06-01T08:04:59.000Z'))).toBe(true);
    expect(verifiedWithin({ verifiedAt: START }, at('2026-06-01T08:05:00.000Z'))).toBe(false);
    expect(verifiedWithin({}, at(START))).toBe(false);
  });
});

describe('TOTP secrets', () => {
  it('needs 26 to 64 base32 characters (at least 16 bytes)', () => {
    expect(validTotpSecret('A'.repeat(16))).toBe(false);
    expect(validTotpSecret('A'.repeat(25))).toBe(false);
    expect(validTotpSecret('A'.repeat(26))).toBe(true);
    expect(validTotpSecret('A'.repeat(64))).toBe(true);
    expect(validTotpSecret('A'.repeat(65))).toBe(false);
    expect(validTotpSecret('a'.repeat(32))).toBe(false);
  });
});

describe('attempt reservations', () => {
  function counter() {
    const counts = new Map<string, number>();
    return {
      counts,
      reserveAttempt: async (key: string, window: string, max: number) => {
        const count = counts.get(`${key}|${window}`) ?? 0;
        if (count >= max) return false;
        counts.set(`${key}|${window}`, count + 1);
        return true;
      },
      releaseAttempt: async (key: string, window: string) => {
        counts.set(`${key}|${window}`, (counts.get(`${key}|${window}`) ?? 0) - 1);
      },
    };
  }
  const now = at('2026-06-01T08:05:00.000Z');

  it('refuses the attempt past 5 per email, with the seconds to the window end', async () => {
    const limits = attemptLimits(counter());
    for (let i = 0; i < MAX_FAILURES_PER_EMAIL; i += 1)
      expect((await limits.reserve('a@x.test', '1.2.3.4', now)).ok).toBe(true);
    expect(await limits.reserve('a@x.test', '1.2.3.4', now)).toEqual({ ok: false, retryAfterS: 600 });
  });

  it('gives back the IP reservation when the email is over its limit, and both on success', async () => {
    const store = counter();
    const limits = attemptLimits(store);
    for (let i = 0; i < MAX_FAILURES_PER_EMAIL; i += 1) await limits.reserve('a@x.test', '1.2.3.4', now);
    await limits.reserve('a@x.test', '1.2.3.4', now);
    expect([...store.counts.values()].sort()).toEqual([5, 5]);
    const ok = await limits.reserve('b@x.test', '1.2.3.4', now);
    if (!ok.ok) throw new Error('expected a reservation');
    await ok.reservation.release();
    expect([...store.counts.values()].sort()).toEqual([0, 5, 5]);
  });

  it('refuses past 20 per IP whatever the email', async () => {
    const limits = attemptLimits(counter());
    for (let i = 0; i < MAX_FAILURES_PER_IP; i += 1) await limits.reserve(`u${i}@x.test`, '1.2.3.4', now);
    expect((await limits.reserve('new@x.test', '1.2.3.4', now)).ok).toBe(false);
    expect((await limits.reserve('new@x.test', '5.6.7.8', now)).ok).toBe(true);
  });
});
