import { AUDIT } from '../domain/audit/actions.js';
import { ApiError } from '../domain/errors.js';
import type { Clock } from '../domain/clock.js';
import type { IdGenerator } from '../domain/ids.js';
import type { Environment } from '../domain/tenancy.js';
import type { AnyUserRole } from '../domain/users/types.js';
import { boundedUserAgent, userAudit, type ClientMeta } from '../domain/sign-in/audit.js';
import type { SignInChange, SignInStore } from '../domain/sign-in/ports.js';
import { absoluteEndOf, needsTouch, sessionEnded } from '../domain/sign-in/sessions.js';
import { randomToken, sha256Hex } from './tokens.js';
import { MAX_SESSIONS_PER_USER, type StoredSession } from '../domain/sign-in/types.js';

export interface SignInDeps {
  store: SignInStore;
  clock: Clock;
  ids: IdGenerator;
}

/** Who a new session is for (from the user item, read at sign-in). */
export interface SessionUser {
  id: string;
  email: string;
  role: AnyUserRole;
  organizationId: string | null;
  /** The environment the user last chose (Sandbox by default). */
  environment?: Environment;
}

/**
 * Dashboard sessions: opened at sign-in (a random secret in the cookie, only its hash stored),
 * found again by the cookie (ended when idle 30 minutes, 12 hours old, or revoked), listed and
 * revoked on the security page, all ended by sign out everywhere and by the users area
 * (SessionRevoker) when a user is removed or re-roled. The session carries the user's role as it
 * was at sign-in: a role change ends every session of the user, so it never goes stale.
 */
export function sessionService(deps: SignInDeps) {
  const { store, clock, ids } = deps;

  /** The new session's changes (with the oldest open sessions ended past MAX_SESSIONS_PER_USER). */
  async function opening(user: SessionUser, meta: ClientMeta, verified: boolean) {
    const now = clock.now();
    const secret = randomToken();
    const session: StoredSession = {
      id: ids('session'),
      hash: sha256Hex(secret),
      userId: user.id,
      email: user.email,
      role: user.role,
      organizationId: user.organizationId,
      environment: user.organizationId === null ? 'PRODUCTION' : (user.environment ?? 'SANDBOX'),
      csrfToken: randomToken(),
      createdAt: now.toISOString(),
      lastSeenAt: now.toISOString(),
      expiresAt: absoluteEndOf(now),
      ...(verified ? { verifiedAt: now.toISOString() } : {}),
      ipAddress: meta.ipAddress,
      userAgent: boundedUserAgent(meta.userAgent),
    };
    const open = (await store.listSessions(user.id)).filter((candidate) => !sessionEnded(candidate, now));
    const excess = open.slice(MAX_SESSIONS_PER_USER - 1);
    const changes: SignInChange[] = [
      { type: 'putSession', session },
      ...excess.map((old): SignInChange => ({
        type: 'updateSession',
        hash: old.hash,
        set: { revokedAt: now.toISOString() },
      })),
    ];
    return { secret, session, changes };
  }

  return {
    opening,

    /** The open session of a cookie's secret (its activity recorded at most once a minute), or undefined. */
    async resolve(secret: string): Promise<StoredSession | undefined> {
      if (secret.length === 0 || secret.length > 100) return undefined;
      const session = await store.getSession(sha256Hex(secret));
      const now = clock.now();
      if (!session || sessionEnded(session, now)) return undefined;
      if (needsTouch(session, now)) {
        const lastSeenAt = now.toISOString();
        await store.commit([{ type: 'updateSession', hash: session.hash, set: { lastSeenAt } }]);
        return { ...session, lastSeenAt };
      }
      return session;
    },

    /** The user's open sessions, newest first. */
    async list(userId: string): Promise<StoredSession[]> {
      const now = clock.now();
      return (await store.listSessions(userId)).filter((session) => !sessionEnded(session, now));
    },

    /** Sign out: this session ends (user.logout). */
    async signOut(session: StoredSession, meta: ClientMeta): Promise<void> {
      const now = clock.now();
      await store.commit([
        { type: 'updateSession', hash: session.hash, set: { revokedAt: now.toISOString() } },
        ...userAudit(subjectOf(session), AUDIT.user.logout, meta, now, ids, { sessionId: session.id }),
      ]);
    },

    /** Ends one of the user's own sessions by its public id (user.session.revoke); false if there is none open. */
    async revoke(current: StoredSession, sessionId: string, meta: ClientMeta): Promise<boolean> {
      const now = clock.now();
      const target = (await store.listSessions(current.userId)).find(
        (session) => session.id === sessionId && !sessionEnded(session, now),
      );
      if (!target) return false;
      await store.commit([
        { type: 'updateSession', hash: target.hash, set: { revokedAt: now.toISOString() } },
        ...userAudit(subjectOf(current), AUDIT.user.revokeSession, meta, now, ids, { sessionId }),
      ]);
      return true;
    },

    /** Sign out everywhere: every open session of the user ends, this one too (user.logout, `everywhere`). */
    async signOutEverywhere(current: StoredSession, meta: ClientMeta): Promise<void> {
      const now = clock.now();
      await endAll(current.userId, now);
      const audit = userAudit(subjectOf(current), AUDIT.user.logout, meta, now, ids, { everywhere: true });
      if (audit.length > 0) await store.commit(audit);
    },

    /** SessionRevoker (shared/domain/users/ports.ts): every open session of the user ends. */
    async revokeAllSessions(userId: string): Promise<void> {
      await endAll(userId, clock.now());
    },

    /** The second factor proven again in this session (step-up). */
    async markVerified(session: StoredSession, meta: ClientMeta, method: string): Promise<void> {
      const now = clock.now();
      await store.commit([
        { type: 'updateSession', hash: session.hash, set: { verifiedAt: now.toISOString() } },
        ...userAudit(subjectOf(session), AUDIT.user.stepUp, meta, now, ids, { method }),
      ]);
    },

    async switchEnvironment(session: StoredSession, environment: Environment): Promise<void> {
      await store.commit([{ type: 'updateSession', hash: session.hash, set: { environment } }]);
    },
  };

  async function endAll(userId: string, now: Date) {
    const open = (await store.listSessions(userId)).filter((session) => !sessionEnded(session, now));
    // One by one (at most MAX_SESSIONS_PER_USER open): a session ended meanwhile is simply skipped.
    for (const session of open) {
      await store
        .commit([{ type: 'updateSession', hash: session.hash, set: { revokedAt: now.toISOString() } }])
        .catch((error: unknown) => {
          if (!(error instanceof ApiError && error.code === 'UNAUTHORIZED')) throw error;
        });
    }
  }
}

export type SessionService = ReturnType<typeof sessionService>;

export const subjectOf = (session: StoredSession) => ({
  userId: session.userId,
  organizationId: session.organizationId,
  environment: session.environment,
});
