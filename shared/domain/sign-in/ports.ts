import type { AuditChange } from '../audit/ports.js';
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

/** What sign-in commits: its own items and the audit entries of the events. */
export type SignInChange = SignInItemChange | AuditChange;

/** Failed sign-ins counted per key (`email:<hash>`, `ip:<address>`) in fixed windows. */
export interface AttemptCounter {
  failures(key: string, windowStart: string): Promise<number>;
  recordFailure(key: string, windowStart: string, expiresAtEpochS: number): Promise<void>;
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
  /** The user's sessions, newest first (ended ones too, until the table's TTL removes them), at most 100. */
  listSessions(userId: string): Promise<StoredSession[]>;
  putChallenge(record: ChallengeRecord): Promise<void>;
  /** The challenge, if unexpired and not taken before (it is taken now). */
  takeChallenge(hash: string, now: Date): Promise<ChallengeRecord | undefined>;
  commit: (changes: SignInChange[]) => Promise<void>;
}
