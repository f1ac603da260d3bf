import { AUDIT } from '../domain/audit/actions.js';
import type { Sealer } from '../domain/sealing.js';
import type { UserReader } from '../domain/users/ports.js';
import type { User } from '../domain/users/types.js';
import { attemptLimits } from './attempts.js';
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

  async function failed(email: string | undefined, user: User | undefined, meta: ClientMeta, method: string) {
    const now = clock.now();
    await limits.fail(email, meta.ipAddress, now);
    if (user) {
      const audit = userAudit(subjectOfUser(user), AUDIT.user.loginFail, meta, now, ids, { method });
      if (audit.length > 0) await store.commit(audit);
    }
    return { ok: false as const, reason: 'credentials' as const };
  }

  /** The user whose password this is, among the active users of the email (one per organization). */
  async function userWithPassword(email: string, password: string) {
    const candidates = email.length <= MAX_EMAIL_LENGTH ? await users.findActiveUsersByEmail(email) : [];
    for (const user of candidates) {
      const credentials = await store.getCredentials(user.id);
      if (credentials && (await verifyPassword(password, credentials.passwordHash))) return { user, credentials };
    }
    // The same work whether the email is known or not.
    if (candidates.length === 0) await verifyPassword(password, await decoyHash());
    return { user: candidates[0], credentials: undefined };
  }

  async function signedIn(
    user: User,
    meta: ClientMeta,
    credentialChanges: SignInChange[],
    details: Record<string, unknown>,
    extraAudit: SignInChange[] = [],
  ): Promise<SignInResult> {
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

  async function limited(email: string | undefined, meta: ClientMeta): Promise<SignInResult | undefined> {
    const retryAfterS = await limits.retryAfter(email, meta.ipAddress, clock.now());
    return retryAfterS === undefined ? undefined : { ok: false, reason: 'limited', retryAfterS };
  }

  return {
    async withCode(input: { email: string; password: string; code: string }, meta: ClientMeta): Promise<SignInResult> {
      const email = foldEmail(input.email);
      const refused = await limited(email, meta);
      if (refused) return refused;
      if (input.password.length > MAX_PASSWORD_LENGTH) return failed(email, undefined, meta, 'totp');
      const { user, credentials } = await userWithPassword(email, input.password);
      if (!user || !credentials?.totpSecretSealed) return failed(email, user, meta, 'totp');
      const secret = await sealer.open(credentials.totpSecretSealed, totpContext(user.id));
      const step = checkTotp(secret, input.code, clock.now(), credentials.totpLastStep);
      if (step === undefined) return failed(email, user, meta, 'totp');
      return signedIn(user, meta, [stepUsed(credentials, step, clock.now())], { method: 'totp' });
    },

    async withRecoveryCode(
      input: { email: string; password: string; recoveryCode: string },
      meta: ClientMeta,
    ): Promise<SignInResult> {
      const email = foldEmail(input.email);
      const refused = await limited(email, meta);
      if (refused) return refused;
      if (input.password.length > MAX_PASSWORD_LENGTH) return failed(email, undefined, meta, 'recovery-code');
      const { user, credentials } = await userWithPassword(email, input.password);
      const used = credentials ? matchRecoveryCode(input.recoveryCode, credentials.recoveryCodeHashes) : undefined;
      if (!user || !credentials || !used) return failed(email, user, meta, 'recovery-code');
      const now = clock.now();
      const left = credentials.recoveryCodeHashes.filter((hash) => hash !== used);
      const result = await signedIn(
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
      const refused = await limited(undefined, meta);
      if (refused) return refused;
      const proven = await provePasskey(rp, response, undefined);
      if (!proven) return failed(undefined, undefined, meta, 'passkey');
      const user = await users.getUser(proven.credentials.userId);
      if (!user || user.status !== 'ACTIVE') return failed(undefined, undefined, meta, 'passkey');
      return signedIn(user, meta, [proven.change], { method: 'passkey' });
    },

    /** Step-up: a TOTP code or one of the user's passkeys proves the second factor again. */
    async stepUp(
      rp: RelyingParty,
      session: StoredSession,
      proof: { code?: string; passkey?: unknown },
      meta: ClientMeta,
    ): Promise<'ok' | 'refused' | 'limited'> {
      const now = clock.now();
      if ((await limits.retryAfter(`user:${session.userId}`, meta.ipAddress, now)) !== undefined) return 'limited';
      const credentials = await store.getCredentials(session.userId);
      let change: SignInChange | undefined;
      if (credentials && proof.code !== undefined && credentials.totpSecretSealed) {
        const secret = await sealer.open(credentials.totpSecretSealed, totpContext(session.userId));
        const step = checkTotp(secret, proof.code, now, credentials.totpLastStep);
        if (step !== undefined) change = stepUsed(credentials, step, now);
      } else if (credentials && proof.passkey !== undefined) {
        change = (await provePasskey(rp, proof.passkey, session.userId))?.change;
      }
      if (!change) {
        await limits.fail(`user:${session.userId}`, meta.ipAddress, now);
        return 'refused';
      }
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
