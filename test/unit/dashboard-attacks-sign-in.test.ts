import { describe, expect, it, vi } from 'vitest';

const verified: string[] = [];
vi.mock('../../shared/sign-in/passwords.js', () => ({
  verifyPassword: async (_password: string, stored: string) => {
    verified.push(stored);
    return false;
  },
  decoyHash: async () => 'decoy',
  hashPassword: async () => 'hash',
}));

const { signInFlows } = await import('../../shared/sign-in/sign-in-flows.js');
const { sessionService } = await import('../../shared/sign-in/session-service.js');

type Flows = ReturnType<typeof signInFlows>;

function flowsWith(usersByEmail: Record<string, { id: string; organizationId: string }[]>): Flows {
  const counters = new Map<string, number>();
  const store = {
    getCredentials: async (userId: string) => ({
      userId,
      passwordHash: `hash-of-${userId}`,
      passkeys: [],
      recoveryCodeHashes: [],
      updatedAt: '2026-01-01T00:00:00.000Z',
    }),
    getSession: async () => undefined,
    listSessions: async () => [],
    putChallenge: async () => undefined,
    takeChallenge: async () => undefined,
    commit: async () => undefined,
    reserveAttempt: async (key: string, window: string, max: number) => {
      const count = counters.get(`${key}|${window}`) ?? 0;
      if (count >= max) return false;
      counters.set(`${key}|${window}`, count + 1);
      return true;
    },
    releaseAttempt: async (key: string, window: string) => {
      counters.set(`${key}|${window}`, Math.max(0, (counters.get(`${key}|${window}`) ?? 0) - 1));
    },
  };
  const clock = { now: () => new Date('2026-06-01T12:00:00.000Z') };
  let n = 0;
  const ids = ((prefix: string) => `${prefix}_${(n += 1)}`) as never;
  const users = {
    getUser: async () => undefined,
    getUserByInvitationHash: async () => undefined,
    listUsers: async () => [],
    findActiveUsersByEmail: async (email: string) =>
      (usersByEmail[email] ?? []).map((user) => ({
        ...user,
        email,
        role: 'viewer',
        status: 'ACTIVE',
        createdAt: '2026-01-01T00:00:00.000Z',
        invitedBy: 'test',
      })),
  };
  const sealer = { seal: async (value: string) => value, open: async (value: string) => value };
  const deps = { store, clock, ids } as never;
  return signInFlows({ ...(deps as object), users, sealer, sessions: sessionService(deps) } as never);
}

describe('sign-in attacks (unit)', () => {
  it('a wrong password costs the same number of scrypt verifications for an unknown email as for an email of several organizations (no enumeration by timing)', async () => {
    const flows = flowsWith({
      'shared@example.test': [
        { id: 'usr_a', organizationId: 'org_1' },
        { id: 'usr_b', organizationId: 'org_2' },
        { id: 'usr_c', organizationId: 'org_3' },
      ],
    });
    const meta = { ipAddress: '203.0.113.9', userAgent: 'test' };
    verified.length = 0;
    await flows.withCode({ email: 'nobody@example.test', password: 'wrong password here', code: '000000' }, meta);
    const unknown = verified.length;
    verified.length = 0;
    await flows.withCode({ email: 'shared@example.test', password: 'wrong password here', code: '000000' }, meta);
    const known = verified.length;
    // Each candidate's hash is verified in turn: 3 scrypt runs (N=2^17) against 1 for an unknown email.
    expect(known).toBe(unknown);
  });
});
