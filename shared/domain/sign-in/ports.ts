import type { AuditChange } from '../audit/ports.js';
import type { UserChange } from '../users/changes.js';
import type { Credentials, StoredSession } from './types.js';

/**
 * What sign-in writes, in one transaction with the audit entry of the event: a user's factors
 * (conditioned on the version read: two enrolments racing, one wins), a new session, a session's
 * activity, environment or step-up, its end.
 */
export type SignInItemChange =
  | { type: 'putCredentials'; credentials: Credentials; expectUpdatedAt: string | null }
  | { type: 'putSession'; session: StoredSession }
  | {
      type: 'updateSession';
      hash: string;
      set: Partial<Pick<StoredSession, 'lastSeenAt' | 'verifiedAt' | 'environment' | 'revokedAt'>>;
    };

/** What sign-in commits: its own items, the audit entries of the events, the user's acceptance of an invitation. */
export type SignInChange = SignInItemChange | AuditChange | UserChange;

/**
 * Sign-in attempts counted per key (`email:<hash>`, `ip:<address>`) in fixed windows, reserved
 * before the password is checked (one conditional update: concurrent guesses can not pass the limit).
 */
export interface AttemptCounter {
  /** Counts one attempt if fewer than `max` are counted in the window; false (nothing counted) otherwise. */
  reserveAttempt(key: string, windowStart: string, max: number, expiresAtEpochS: number): Promise<boolean>;
  /** Gives back an attempt reserved (a successful sign-in, or the other key over its limit). */
  releaseAttempt(key: string, windowStart: string): Promise<void>;
}

/** A WebAuthn challenge handed to one browser, taken once (5 minutes). */
export interface ChallengeRecord {
  hash: string;
  challenge: string;
  purpose: 'register' | 'authenticate';
  userId?: string;
  expiresAt: string;
}

export interface SignInStore extends AttemptCounter {
  getCredentials(userId: string): Promise<Credentials | undefined>;
  getSession(hash: string): Promise<StoredSession | undefined>;
  /** The user's sessions not revoked, newest first, all of them (idle or expired ones too, until the table's TTL removes them). */
  listSessions(userId: string): Promise<StoredSession[]>;
  putChallenge(record: ChallengeRecord): Promise<void>;
  /** The challenge, if unexpired and not taken before (it is taken now). */
  takeChallenge(hash: string, now: Date): Promise<ChallengeRecord | undefined>;
  commit: (changes: SignInChange[]) => Promise<void>;
}
