import type { User } from '../../domain/users/types.js';
import { recordOf, type Item, type ItemKey } from '../item.js';
import type { IndexUsage } from '../table-schema.js';

export const USER_ENTITY = 'USER';
export const USER_EMAIL_ENTITY = 'USER_EMAIL';
export const USER_ROSTER_ENTITY = 'USER_ROSTER';

/** The operator's people belong to no organization: their partitions use this name. */
const OPERATOR_SCOPE = 'OPERATOR';
const scopeOf = (organizationId: string | null) => organizationId ?? OPERATOR_SCOPE;

/**
 * Dashboard users (`USER#id`), the slot holding an email per organization (lower-cased; freed when
 * the user is removed) and each organization's roster version (`USER_ROSTER#org`, what the users
 * service's changes are conditioned on). The invitation is found by its hash (GSI2, only while
 * INVITED: the token itself is never stored); sign-in finds ACTIVE users by email (GSI2 too).
 */
export const userKeys = {
  primary: (userId: string): ItemKey => ({ PK: `USER#${userId}`, SK: 'USER' }),
  email: (organizationId: string | null, email: string): ItemKey => ({
    PK: `USER_EMAIL#${scopeOf(organizationId)}#${email}`,
    SK: 'USER_EMAIL',
  }),
  roster: (organizationId: string | null): ItemKey => ({
    PK: `USER_ROSTER#${scopeOf(organizationId)}`,
    SK: 'USER_ROSTER',
  }),
  /** GSI1: an organization's INVITED and ACTIVE users, oldest first. */
  ofOrganization: (organizationId: string | null) => ({ GSI1PK: `USERS#${scopeOf(organizationId)}` }),
  /** GSI2: the INVITED user holding an invitation (sha256 of its token). */
  invitation: (hash: string) => ({ GSI2PK: `USER_INVITATION#${hash}` }),
  /** GSI2 too (an ACTIVE user holds no invitation): the ACTIVE users with an email, across organizations. */
  activeEmail: (email: string) => ({ GSI2PK: `USER_ACTIVE_EMAIL#${email}` }),
};

const sortOf = (user: User) => `${user.createdAt}#${user.id}`;

export const userCodec = {
  /** The item with the index keys its status calls for (a REMOVED user is in no index). */
  toItem(user: User): Item {
    const listed = user.status !== 'REMOVED';
    return {
      ...userKeys.primary(user.id),
      entityType: USER_ENTITY,
      ...(listed ? { ...userKeys.ofOrganization(user.organizationId), GSI1SK: sortOf(user) } : {}),
      ...(user.status === 'INVITED' && user.invitationHash
        ? { ...userKeys.invitation(user.invitationHash), GSI2SK: user.id }
        : {}),
      ...(user.status === 'ACTIVE' ? { ...userKeys.activeEmail(user.email), GSI2SK: sortOf(user) } : {}),
      ...user,
    };
  },
  fromItem(item: Item): User {
    const record = recordOf(item) as unknown as User;
    return { ...record, organizationId: typeof item.organizationId === 'string' ? item.organizationId : null };
  },
};

/** Holds an email (lower-cased) for one user of an organization (or of the operator). */
export const userEmailCodec = {
  toItem(user: User): Item {
    return { ...userKeys.email(user.organizationId, user.email), entityType: USER_EMAIL_ENTITY, userId: user.id };
  },
};

/** What each index of user items serves (entries of INDEX_USAGE, entities/index-usage.ts). */
export const USER_INDEXES = {
  USER: {
    GSI1: "an organization's (or the operator's) INVITED and ACTIVE users, oldest first by `${createdAt}#${id}`",
    GSI2: 'while INVITED: the user holding an invitation, by the sha256 of its token; while ACTIVE: the users with an email, across organizations (sign-in)',
  },
} as const satisfies IndexUsage;
