import type { User, UserStatus } from './types.js';

/**
 * The users area's changes (a leaf module: sign-in commits them with its own credential and session
 * changes in one transaction).
 */
export type UserChange =
  /**
   * A new (INVITED) user, conditioned on no INVITED or ACTIVE user of the same organization having
   * the email (USER_EXISTS otherwise; the email's slot is written in the same transaction).
   */
  | { type: 'putUser'; user: User }
  /**
   * The user as given, conditioned on the stored status being `expect` (INVALID_STATE otherwise) and,
   * with `invitationHash`, on that invitation still being the stored one (an invitation is single
   * use: two acceptances racing, one wins). Leaving INVITED/ACTIVE for REMOVED frees the email's slot.
   */
  | { type: 'updateUser'; user: User; expect: UserStatus; invitationHash?: string }
  /**
   * The organization's roster (null: the operator's people) as read at `version`: the users
   * service's changes carry it, so two changes decided over the same list (the last owner demoted
   * twice at once) can not both commit (CONCURRENT_UPDATE: read again).
   */
  | { type: 'lockRoster'; organizationId: string | null; version: number };
