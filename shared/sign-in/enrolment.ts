import { AUDIT } from '../domain/audit/actions.js';
import { passwordProblem } from '../domain/sign-in/password-rules.js';
import type { SignInChange } from '../domain/sign-in/ports.js';
import { MAX_PASSKEYS, type Credentials, type StoredSession } from '../domain/sign-in/types.js';
import { userAudit, type ClientMeta } from '../domain/sign-in/audit.js';
import type { User } from '../domain/users/types.js';
import { hashPassword } from './passwords.js';
import { newRecoveryCodes } from './recovery-codes.js';
import { subjectOf } from './session-service.js';
import { totpContext, type SignInFlowDeps } from './sign-in-flows.js';
import { sha256Hex } from './tokens.js';
import { checkTotp, validTotpSecret } from './totp.js';
import { challengeOf, registrationOptions, verifyRegistration, type RelyingParty } from './webauthn.js';

const CHALLENGE_TTL_MS = 5 * 60_000;

/** The second factor chosen at enrolment: a TOTP app (its secret and a first code) or a passkey (its registration). */
export type FactorInput =
  { factor: 'totp'; totpSecret: string; code: string } | { factor: 'passkey'; credential: unknown };

export type EnrolmentRefusal = { ok: false; field: string; message: string };

/**
 * Accepting an invitation (a password, a second factor, ten recovery codes shown once) and the
 * security page's changes (another authenticator app, passkeys added or removed, new recovery
 * codes). A user keeps at least one of an authenticator app or a passkey.
 */
export function enrolment(deps: SignInFlowDeps) {
  const { store, users, sealer, clock, ids, sessions } = deps;

  /** The INVITED user of an invitation token, while it is unexpired. */
  async function invited(token: string): Promise<User | undefined> {
    if (token.length === 0 || token.length > 200) return undefined;
    const user = await users.getUserByInvitationHash(sha256Hex(token));
    if (!user || user.status !== 'INVITED' || user.invitationHash === undefined) return undefined;
    if (user.invitationExpiresAt !== undefined && Date.parse(user.invitationExpiresAt) <= clock.now().getTime())
      return undefined;
    return user;
  }

  async function passkeyOptions(
    rp: RelyingParty,
    user: { id: string; email: string },
    existing: Credentials['passkeys'],
  ) {
    const options = await registrationOptions(rp, user, existing);
    await store.putChallenge({
      hash: sha256Hex(options.challenge),
      challenge: options.challenge,
      purpose: 'register',
      userId: user.id,
      expiresAt: new Date(clock.now().getTime() + CHALLENGE_TTL_MS).toISOString(),
    });
    return options;
  }

  /** The passkey a registration response proves for `userId` (its challenge taken), else undefined. */
  async function registered(rp: RelyingParty, userId: string, response: unknown) {
    const inner = (response as { response?: { clientDataJSON?: unknown } } | undefined)?.response;
    const { challenge } = challengeOf(inner?.clientDataJSON);
    if (!challenge) return undefined;
    const record = await store.takeChallenge(sha256Hex(challenge), clock.now());
    if (!record || record.purpose !== 'register' || record.userId !== userId) return undefined;
    return verifyRegistration(rp, response, record.challenge, clock.now());
  }

  /** The factor's part of the credentials, or the refusal naming the field. */
  async function factorOf(rp: RelyingParty, userId: string, input: FactorInput) {
    if (input.factor === 'totp') {
      const secret = input.totpSecret.trim().toUpperCase();
      if (!validTotpSecret(secret)) return { refusal: { field: 'code', message: 'Reload the page for a new secret.' } };
      const step = checkTotp(secret, input.code, clock.now());
      if (step === undefined)
        return { refusal: { field: 'code', message: 'That code is not right. Enter the code your app shows now.' } };
      return { totpSecretSealed: await sealer.seal(secret, totpContext(userId)), totpLastStep: step };
    }
    const passkey = await registered(rp, userId, input.credential);
    if (!passkey) return { refusal: { field: 'passkey', message: 'The passkey could not be registered. Try again.' } };
    return { passkey };
  }

  return {
    invited,
    passkeyOptions,

    async invitationPasskeyOptions(rp: RelyingParty, token: string) {
      const user = await invited(token);
      return user ? passkeyOptions(rp, user, []) : undefined;
    },

    async accept(
      rp: RelyingParty,
      token: string,
      input: { password: string; confirm: string } & FactorInput,
      meta: ClientMeta,
    ): Promise<{ ok: true; secret: string; session: StoredSession; recoveryCodes: string[] } | EnrolmentRefusal> {
      const user = await invited(token);
      if (!user) return { ok: false, field: 'invitation', message: 'This invitation is no longer valid.' };
      const problem = passwordProblem(input.password, user.email);
      if (problem) return { ok: false, field: 'password', message: problem };
      if (input.password !== input.confirm)
        return { ok: false, field: 'confirm', message: 'The two passwords are not the same.' };
      const factor = await factorOf(rp, user.id, input);
      if ('refusal' in factor && factor.refusal) return { ok: false, ...factor.refusal };
      const now = clock.now();
      const recovery = newRecoveryCodes();
      const credentials: Credentials = {
        userId: user.id,
        passwordHash: await hashPassword(input.password),
        ...('totpSecretSealed' in factor
          ? { totpSecretSealed: factor.totpSecretSealed, totpLastStep: factor.totpLastStep }
          : {}),
        passkeys: 'passkey' in factor && factor.passkey ? [factor.passkey] : [],
        recoveryCodeHashes: recovery.hashes,
        updatedAt: now.toISOString(),
      };
      const { invitationHash, invitationExpiresAt: _expired, ...rest } = user;
      void _expired;
      const active: User = { ...rest, status: 'ACTIVE', acceptedAt: now.toISOString() };
      const opened = await sessions.opening(active, meta, true);
      const subject = { userId: user.id, organizationId: user.organizationId, environment: opened.session.environment };
      await store.commit([
        { type: 'updateUser', user: active, expect: 'INVITED', ...(invitationHash ? { invitationHash } : {}) },
        { type: 'putCredentials', credentials, expectUpdatedAt: null },
        ...opened.changes,
        ...userAudit(subject, AUDIT.user.accept, meta, now, ids, { role: user.role }),
        ...userAudit(subject, AUDIT.user.addFactor, meta, now, ids, { factor: input.factor }),
        ...userAudit(subject, AUDIT.user.login, meta, now, ids, { method: 'invitation', sessionId: opened.session.id }),
      ]);
      return { ok: true, secret: opened.secret, session: opened.session, recoveryCodes: recovery.codes };
    },

    /** A new authenticator app (replacing the old one), confirmed with a first code. */
    async setTotp(
      session: StoredSession,
      secret: string,
      code: string,
      meta: ClientMeta,
    ): Promise<EnrolmentRefusal | { ok: true }> {
      const credentials = await mustHave(session.userId);
      const factor = await factorOf({ rpId: '', origin: '', name: '' }, session.userId, {
        factor: 'totp',
        totpSecret: secret,
        code,
      });
      if ('refusal' in factor && factor.refusal) return { ok: false, ...factor.refusal };
      if (!('totpSecretSealed' in factor)) return { ok: false, field: 'code', message: 'Try again.' };
      await save(
        session,
        credentials,
        { ...credentials, totpSecretSealed: factor.totpSecretSealed, totpLastStep: factor.totpLastStep },
        [AUDIT.user.addFactor, { factor: 'totp' }],
        meta,
      );
      return { ok: true };
    },

    async removeTotp(session: StoredSession, meta: ClientMeta): Promise<boolean> {
      const credentials = await mustHave(session.userId);
      if (!credentials.totpSecretSealed || credentials.passkeys.length === 0) return false;
      const { totpSecretSealed: _sealed, totpLastStep: _step, ...rest } = credentials;
      void _sealed;
      void _step;
      await save(session, credentials, rest, [AUDIT.user.removeFactor, { factor: 'totp' }], meta);
      return true;
    },

    async addPasskey(rp: RelyingParty, session: StoredSession, response: unknown, meta: ClientMeta): Promise<boolean> {
      const credentials = await mustHave(session.userId);
      if (credentials.passkeys.length >= MAX_PASSKEYS) return false;
      const passkey = await registered(rp, session.userId, response);
      if (!passkey || credentials.passkeys.some((existing) => existing.id === passkey.id)) return false;
      await save(
        session,
        credentials,
        { ...credentials, passkeys: [...credentials.passkeys, passkey] },
        [AUDIT.user.addFactor, { factor: 'passkey' }],
        meta,
      );
      return true;
    },

    async removePasskey(session: StoredSession, passkeyId: string, meta: ClientMeta): Promise<boolean> {
      const credentials = await mustHave(session.userId);
      const left = credentials.passkeys.filter((passkey) => passkey.id !== passkeyId);
      if (left.length === credentials.passkeys.length) return false;
      if (left.length === 0 && !credentials.totpSecretSealed) return false;
      await save(
        session,
        credentials,
        { ...credentials, passkeys: left },
        [AUDIT.user.removeFactor, { factor: 'passkey' }],
        meta,
      );
      return true;
    },

    /** Ten new recovery codes (the old ones stop working), shown once. */
    async regenerateRecoveryCodes(session: StoredSession, meta: ClientMeta): Promise<string[]> {
      const credentials = await mustHave(session.userId);
      const recovery = newRecoveryCodes();
      await save(
        session,
        credentials,
        { ...credentials, recoveryCodeHashes: recovery.hashes },
        [AUDIT.user.regenerateRecoveryCodes, {}],
        meta,
      );
      return recovery.codes;
    },

    credentialsOf: (userId: string) => store.getCredentials(userId),
  };

  async function mustHave(userId: string): Promise<Credentials> {
    const credentials = await store.getCredentials(userId);
    if (!credentials) throw new Error(`user ${userId} has a session but no credentials`);
    return credentials;
  }

  async function save(
    session: StoredSession,
    before: Credentials,
    after: Credentials,
    [action, details]: [Parameters<typeof userAudit>[1], Record<string, unknown>],
    meta: ClientMeta,
  ) {
    const now = clock.now();
    const changes: SignInChange[] = [
      {
        type: 'putCredentials',
        credentials: { ...after, updatedAt: now.toISOString() },
        expectUpdatedAt: before.updatedAt,
      },
      ...userAudit(subjectOf(session), action, meta, now, ids, details),
    ];
    await store.commit(changes);
  }
}

export type Enrolment = ReturnType<typeof enrolment>;
