import { AUDIT } from '../domain/audit/actions.js';
import type { Sealer } from '../domain/sealing.js';
import type { UserReader } from '../domain/users/ports.js';
import type { User } from '../domain/users/types.js';
import { attemptLimits, type Reservation } from './attempts.js';
import { userAudit, type ClientMeta } from '../domain/sign-in/audit.js';
import { MAX_PASSWORD_LENGTH } from '../domain/sign-in/password-rules.js';
import { decoyHash, verifyPassword } from './passwords.js';
import type { SignInChange } from '../domain/sign-in/ports.js';
import { matchRecoveryCode } from './recovery-codes.js';
import type { SessionService, SignInDeps } from './session-service.js';
import { randomToken, sha256Hex } from './tokens.js';
import { checkTotp } from './totp.js';
import type { Credentials, StoredSession } from '../domain/sign-in/types.js';
import { assertionClaims, authenticationOptions, verifyAssertion, type RelyingParty } from './webauthn.js';

export interface SignInFlowDeps extends SignInDeps {
  users: UserReader;
  sealer: Sealer;
  sessions: SessionService;
}

export const MAX_EMAIL_LENGTH = 254;
const CHALLENGE_TTL_MS = 5 * 60_000;
/** Password verifications per sign-in, whatever the email (candidates, then the decoy): constant time. */
export const PASSWORD_CHECKS = 3;

/** What a sign-in answers: a new session (its cookie secret), or a refusal the page words generically. */
export type SignInResult =
  | { ok: true; secret: string; session: StoredSession; recoveryCodesLeft?: number }
  | { ok: false; reason: 'credentials' | 'limited'; retryAfterS?: number };

export const totpContext = (userId: string) => `totp:${userId}`;
export const foldEmail = (email: string) => email.trim().toLowerCase();

/**
 * Signing in (decisions.md section 12): email + password + a TOTP code, email + password + a
 * recovery code, or a passkey alone; and the second factor again in a session (step-up). Every
 * failure answers the same (no hint whether the email exists), counts against the email and the IP
 * (attempts.ts) and, when the email is a user's, is audited as user.login.fail.
 */
export function signInFlows(deps: SignInFlowDeps) {
  const { store, users, sealer, clock, ids, sessions } = deps;
  const limits = attemptLimits(store);

  /** A refusal: the attempt reserved stays counted as the failure. */
  async function failed(user: User | undefined, meta: ClientMeta, method: string) {
    const now = clock.now();
    if (user) {
      const audit = userAudit(subjectOfUser(user), AUDIT.user.loginFail, meta, now, ids, { method });
      if (audit.length > 0) await store.commit(audit);
    }
    return { ok: false as const, reason: 'credentials' as const };
  }

  /**
   * The user whose password this is, among the active users of the email (one per organization,
   * the oldest PASSWORD_CHECKS first). Always PASSWORD_CHECKS verifications, the missing candidates
   * made up with the decoy hash: an unknown email, an email of one organization or of several cost
   * the same (no enumeration by timing). A match stops the checks (a success shows itself anyway).
   */
  async function userWithPassword(email: string, password: string) {
    const found = email.length <= MAX_EMAIL_LENGTH ? await users.findActiveUsersByEmail(email) : [];
    const candidates = [...found]
      .sort((a, b) => (a.createdAt + a.id < b.createdAt + b.id ? -1 : 1))
      .slice(0, PASSWORD_CHECKS);
    for (let i = 0; i < PASSWORD_CHECKS; i += 1) {
      const user = candidates[i];
      const credentials = user ? await store.getCredentials(user.id) : undefined;
      const hash = credentials?.passwordHash ?? (await decoyHash());
      if ((await verifyPassword(password, hash)) && user && credentials) return { user, credentials };
    }
    return { user: candidates[0], credentials: undefined };
  }

  async function signedIn(
    reservation: Reservation,
    user: User,
    meta: ClientMeta,
    credentialChanges: SignInChange[],
    details: Record<string, unknown>,
    extraAudit: SignInChange[] = [],
  ): Promise<SignInResult> {
    await reservation.release();
    const { secret, session, changes } = await sessions.opening(user, meta, true);
    const now = clock.now();
    await store.commit([
      ...credentialChanges,
      ...changes,
      ...extraAudit,
      ...userAudit(
        { userId: user.id, organizationId: user.organizationId, environment: session.environment },
        AUDIT.user.login,
        meta,
        now,
        ids,
        { ...details, sessionId: session.id },
      ),
    ]);
    return { ok: true, secret, session };
  }

  /** The attempt reserved before any check, or the refusal when over a limit. */
  async function reserve(email: string | undefined, meta: ClientMeta) {
    const reserved = await limits.reserve(email, meta.ipAddress, clock.now());
    return reserved.ok
      ? { reservation: reserved.reservation }
      : { refused: { ok: false, reason: 'limited', retryAfterS: reserved.retryAfterS } as SignInResult };
  }

  return {
    async withCode(input: { email: string; password: string; code: string }, meta: ClientMeta): Promise<SignInResult> {
      const email = foldEmail(input.email);
      const { reservation, refused } = await reserve(email, meta);
      if (refused) return refused;
      if (input.password.length > MAX_PASSWORD_LENGTH) return failed(undefined, meta, 'totp');
      const { user, credentials } = await userWithPassword(email, input.password);
      if (!user || !credentials?.totpSecretSealed) return failed(user, meta, 'totp');
      const secret = await sealer.open(credentials.totpSecretSealed, totpContext(user.id));
      const step = checkTotp(secret, input.code, clock.now(), credentials.totpLastStep);
      if (step === undefined) return failed(user, meta, 'totp');
      return signedIn(reservation, user, meta, [stepUsed(credentials, step, clock.now())], { method: 'totp' });
    },

    async withRecoveryCode(
      input: { email: string; password: string; recoveryCode: string },
      meta: ClientMeta,
    ): Promise<SignInResult> {
      const email = foldEmail(input.email);
      const { reservation, refused } = await reserve(email, meta);
      if (refused) return refused;
      if (input.password.length > MAX_PASSWORD_LENGTH) return failed(undefined, meta, 'recovery-code');
      const { user, credentials } = await userWithPassword(email, input.password);
      const used = credentials ? matchRecoveryCode(input.recoveryCode, credentials.recoveryCodeHashes) : undefined;
      if (!user || !credentials || !used) return failed(user, meta, 'recovery-code');
      const now = clock.now();
      const left = credentials.recoveryCodeHashes.filter((hash) => hash !== used);
      const result = await signedIn(
        reservation,
        user,
        meta,
        [
          {
            type: 'putCredentials',
            credentials: { ...credentials, recoveryCodeHashes: left, updatedAt: now.toISOString() },
            expectUpdatedAt: credentials.updatedAt,
          },
        ],
        { method: 'recovery-code' },
        userAudit(subjectOfUser(user), AUDIT.user.useRecoveryCode, meta, now, ids, { left: left.length }),
      );
      return result.ok ? { ...result, recoveryCodesLeft: left.length } : result;
    },

    /** A challenge for a passkey (any of the person's, discoverable), handed to the browser. */
    async passkeyOptions(rp: RelyingParty, forUser?: { id: string; passkeys: Credentials['passkeys'] }) {
      const options = await authenticationOptions(rp, forUser?.passkeys);
      await store.putChallenge({
        hash: sha256Hex(options.challenge),
        challenge: options.challenge,
        purpose: 'authenticate',
        ...(forUser ? { userId: forUser.id } : {}),
        expiresAt: new Date(clock.now().getTime() + CHALLENGE_TTL_MS).toISOString(),
      });
      return options;
    },

    async withPasskey(rp: RelyingParty, response: unknown, meta: ClientMeta): Promise<SignInResult> {
      const { reservation, refused } = await reserve(undefined, meta);
      if (refused) return refused;
      const proven = await provePasskey(rp, response, undefined);
      if (!proven) return failed(undefined, meta, 'passkey');
      const user = await users.getUser(proven.credentials.userId);
      if (!user || user.status !== 'ACTIVE') return failed(undefined, meta, 'passkey');
      return signedIn(reservation, user, meta, [proven.change], { method: 'passkey' });
    },

    /** Step-up: a TOTP code or one of the user's passkeys proves the second factor again. */
    async stepUp(
      rp: RelyingParty,
      session: StoredSession,
      proof: { code?: string; passkey?: unknown },
      meta: ClientMeta,
    ): Promise<'ok' | 'refused' | 'limited'> {
      const now = clock.now();
      const reserved = await limits.reserve(`user:${session.userId}`, meta.ipAddress, now);
      if (!reserved.ok) return 'limited';
      const credentials = await store.getCredentials(session.userId);
      let change: SignInChange | undefined;
      if (credentials && proof.code !== undefined && credentials.totpSecretSealed) {
        const secret = await sealer.open(credentials.totpSecretSealed, totpContext(session.userId));
        const step = checkTotp(secret, proof.code, now, credentials.totpLastStep);
        if (step !== undefined) change = stepUsed(credentials, step, now);
      } else if (credentials && proof.passkey !== undefined) {
        change = (await provePasskey(rp, proof.passkey, session.userId))?.change;
      }
      if (!change) return 'refused';
      await reserved.reservation.release();
      await store.commit([change]);
      await sessions.markVerified(session, meta, proof.code !== undefined ? 'totp' : 'passkey');
      return 'ok';
    },
  };

  /** The passkey an assertion proves (its counter moved on), for `userId` when given. */
  async function provePasskey(rp: RelyingParty, response: unknown, userId: string | undefined) {
    const claims = assertionClaims(response);
    if (!claims?.challenge) return undefined;
    const challenge = await store.takeChallenge(sha256Hex(claims.challenge), clock.now());
    if (!challenge || challenge.purpose !== 'authenticate') return undefined;
    const owner = userId ?? claims.userId;
    if (!owner || (challenge.userId !== undefined && challenge.userId !== owner)) return undefined;
    const credentials = await store.getCredentials(owner);
    const passkey = credentials?.passkeys.find((candidate) => candidate.id === claims.credentialId);
    if (!credentials || !passkey) return undefined;
    const counter = await verifyAssertion(rp, response, challenge.challenge, passkey);
    if (counter === undefined) return undefined;
    const now = clock.now();
    const change: SignInChange = {
      type: 'putCredentials',
      credentials: {
        ...credentials,
        passkeys: credentials.passkeys.map((candidate) =>
          candidate.id === passkey.id ? { ...candidate, counter } : candidate,
        ),
        updatedAt: now.toISOString(),
      },
      expectUpdatedAt: credentials.updatedAt,
    };
    return { credentials, change };
  }
}

export type SignInFlows = ReturnType<typeof signInFlows>;

export const subjectOfUser = (user: User) => ({
  userId: user.id,
  organizationId: user.organizationId,
  environment: user.environment ?? ('SANDBOX' as const),
});

/** The credentials with a TOTP step used (a code is good once). */
function stepUsed(credentials: Credentials, step: number, now: Date): SignInChange {
  return {
    type: 'putCredentials',
    credentials: { ...credentials, totpLastStep: step, updatedAt: now.toISOString() },
    expectUpdatedAt: credentials.updatedAt,
  };
}

/** A fresh login-CSRF value for the pre-session cookie. */
export const newPreSession = randomToken;
