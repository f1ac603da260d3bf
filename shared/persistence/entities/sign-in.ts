import type { ChallengeRecord } from '../../domain/sign-in/ports.js';
import type { Credentials, StoredSession } from '../../domain/sign-in/types.js';
import { readBig } from '../client.js';
import { recordOf, type Item, type ItemKey } from '../item.js';
import { TTL_ATTRIBUTE } from '../table-schema.js';

export const CREDENTIALS_ENTITY = 'CREDENTIALS';
export const SESSION_ENTITY = 'SESSION';
export const SIGN_IN_ATTEMPTS_ENTITY = 'SIGN_IN_ATTEMPTS';
export const WEBAUTHN_CHALLENGE_ENTITY = 'WEBAUTHN_CHALLENGE';

/** A user's sessions, newest first (the security page, sign out everywhere, SessionRevoker). */
export const SESSION_INDEXES = {
  [SESSION_ENTITY]: { GSI1: "a user's sessions, newest first" },
} as const;

/** Ended sessions stay listed a day after their absolute end, then the table's TTL removes them. */
const SESSION_TTL_AFTER_END_S = 24 * 3600;

export const signInKeys = {
  credentials: (userId: string): ItemKey => ({ PK: `USER#${userId}`, SK: 'CREDENTIALS' }),
  session: (hash: string): ItemKey => ({ PK: `SESSION#${hash}`, SK: 'SESSION' }),
  userSessions: (userId: string) => `USER_SESSIONS#${userId}`,
  attempts: (key: string, windowStart: string): ItemKey => ({ PK: `SIGN_IN_ATTEMPTS#${key}`, SK: windowStart }),
  challenge: (hash: string): ItemKey => ({ PK: `WEBAUTHN_CHALLENGE#${hash}`, SK: 'CHALLENGE' }),
};

export const credentialsCodec = {
  toItem: (credentials: Credentials): Item => ({
    ...signInKeys.credentials(credentials.userId),
    entityType: CREDENTIALS_ENTITY,
    ...credentials,
  }),
  fromItem(item: Item): Credentials {
    const record = recordOf(item) as unknown as Credentials;
    return {
      ...record,
      ...(item.totpLastStep === undefined ? {} : { totpLastStep: Number(readBig(item.totpLastStep)) }),
      passkeys: (record.passkeys ?? []).map((passkey) => ({ ...passkey, counter: Number(readBig(passkey.counter)) })),
      recoveryCodeHashes: [...(record.recoveryCodeHashes ?? [])],
    };
  },
};

export const sessionCodec = {
  toItem: (session: StoredSession): Item => ({
    ...signInKeys.session(session.hash),
    entityType: SESSION_ENTITY,
    GSI1PK: signInKeys.userSessions(session.userId),
    GSI1SK: `${session.createdAt}#${session.id}`,
    ...session,
    [TTL_ATTRIBUTE]: Math.floor(Date.parse(session.expiresAt) / 1000) + SESSION_TTL_AFTER_END_S,
  }),
  fromItem: (item: Item): StoredSession => recordOf(item) as unknown as StoredSession,
};

export const challengeCodec = {
  toItem: (record: ChallengeRecord): Item => ({
    ...signInKeys.challenge(record.hash),
    entityType: WEBAUTHN_CHALLENGE_ENTITY,
    ...record,
    [TTL_ATTRIBUTE]: Math.floor(Date.parse(record.expiresAt) / 1000) + 3600,
  }),
  fromItem: (item: Item): ChallengeRecord => recordOf(item) as unknown as ChallengeRecord,
};
