import * as z from 'zod/mini';
import { everyOf } from '../enums.js';
import { describe, enumOf, id, lazy, listOf, nullableTimestamp, objectTag, text, timestamp, view } from '../views.js';
import { OPERATOR_ROLE, USER_ROLES, USER_STATUSES, type AnyUserRole, type User, type UserStatus } from './types.js';
import type { Invitation } from './user-service.js';

const ANY_ROLES = everyOf<AnyUserRole>()([...USER_ROLES, OPERATOR_ROLE]);
const STATUSES = everyOf<UserStatus>()([...USER_STATUSES]);

const userFields = () => ({
  id: id('user', 'The user id.'),
  object: objectTag('user'),
  email: text('The email address, lower-cased (one user per email per organization).'),
  role: enumOf(
    ANY_ROLES,
    'The role: owner, admin, approver, developer or viewer (what each may do: docs/api.md "Users and roles"); operator for the service operator\'s people.',
  ),
  status: enumOf(
    STATUSES,
    'INVITED until the invitation is accepted (password and second factor set), then ACTIVE; REMOVED for good.',
  ),
  createdAt: timestamp('When the user was invited.'),
  invitationExpiresAt: nullableTimestamp('When the current invitation stops working; null once accepted.'),
  acceptedAt: nullableTimestamp('When the invitation was accepted; null while INVITED.'),
});

const EXAMPLE = {
  id: 'usr_Tq8Lm2Zp4Rw9Xb1KLm2Zp4Rw',
  object: 'user' as const,
  email: 'ada@example.com',
  role: 'approver' as const,
  status: 'INVITED' as const,
  createdAt: '2026-11-27T10:00:00.000Z',
  invitationExpiresAt: '2026-11-30T10:00:00.000Z',
  acceptedAt: null,
};

/** A person of the organization who uses the dashboard (never their credentials or invitation). */
export const userView = /* @__PURE__ */ lazy(() =>
  view(userFields(), 'A dashboard user of the organization.', EXAMPLE),
);
export type UserView = z.infer<typeof userView>;

export const userListView = /* @__PURE__ */ lazy(() =>
  listOf(userView, 'The users of the organization.', 'Every INVITED and ACTIVE user, oldest first (at most 100).'),
);

/** The answer of an invitation: the user and, this once, the link carrying the invitation's token. */
export const invitedUserView = /* @__PURE__ */ lazy(() =>
  view(
    {
      ...userFields(),
      inviteUrl: describe(
        z.string(),
        'The invitation link (single use, valid 72 hours): send it to the person, who opens it to set a password and a second factor. Shown in this answer only; only a hash of its token is stored.',
      ),
    },
    'An invited user with the invitation link (shown once).',
    { ...EXAMPLE, inviteUrl: 'https://api.allowance.example/dashboard/invitations/kQ3b8Zr1Lm2Zp4Rw9Xb1KLm2Zp4RwTq8' },
  ),
);
export type InvitedUserView = z.infer<typeof invitedUserView>;

export function presentUser(user: User): UserView {
  return {
    id: user.id,
    object: 'user',
    email: user.email,
    role: user.role,
    status: user.status,
    createdAt: user.createdAt,
    invitationExpiresAt: user.status === 'INVITED' ? (user.invitationExpiresAt ?? null) : null,
    acceptedAt: user.acceptedAt ?? null,
  };
}

export const presentUsers = (users: User[]) => ({ data: users.map(presentUser) });

export const presentInvitation = (invitation: Invitation): InvitedUserView => ({
  ...presentUser(invitation.user),
  inviteUrl: invitation.inviteUrl,
});
