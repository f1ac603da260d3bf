import type { User } from './types.js';

export type { UserChange } from './changes.js';

/** The most users an organization has (INVITED and ACTIVE); an invitation past it is refused. */
export const MAX_USERS_PER_ORGANIZATION = 100;

/** What sign-in and the users service read (DynamoDB and memory implementations, one contract test). */
export interface UserReader {
  getUser(id: string): Promise<User | undefined>;
  /** The INVITED user whose invitation token hashes to `hash` (sha256 hex). */
  getUserByInvitationHash(hash: string): Promise<User | undefined>;
  /** An organization's users (null: the operator's people), INVITED and ACTIVE, oldest first, at most MAX_USERS_PER_ORGANIZATION. */
  listUsers(organizationId: string | null): Promise<User[]>;
  /** The ACTIVE users with this (lower-cased) email, across organizations (sign-in by email), at most 10. */
  findActiveUsersByEmail(email: string): Promise<User[]>;
}

/**
 * Ends a user's dashboard sessions (sign-in owns the sessions: shared/domain/sign-in). The users
 * service calls it when a user is removed or their role changes, so no session outlives the role
 * it was opened with. Idempotent: a user without sessions is fine.
 */
export interface SessionRevoker {
  revokeAllSessions(userId: string): Promise<void>;
}
