import * as z from 'zod/mini';
import { AUDIT } from '../domain/audit/actions.js';
import { USER_ROLES } from '../domain/users/types.js';
import type { UserService } from '../domain/users/user-service.js';
import { presentInvitation, presentUser, presentUsers } from '../domain/users/user-view.js';
import { defineGroup, operation } from './define.js';
import { describe } from './fields.js';

export interface UsersServices {
  users: UserService;
}

const op = operation<UsersServices>();
const userParam = { id: 'The user id (`usr_...`).' };

const MAX_EMAIL_LENGTH = 254;
const email = () =>
  describe(
    z
      .email({ error: 'must be an email address' })
      .check(z.maxLength(MAX_EMAIL_LENGTH, 'must be at most 254 characters')),
    'The email address of the person (compared lower-cased; one user per email per organization).',
  );
const role = () =>
  describe(
    z.enum(USER_ROLES),
    'The role: owner, admin, approver, developer or viewer (docs/api.md "Users and roles"). You grant only a role whose permissions you hold; only an owner (or an organization key) grants owner.',
  );
const invitation = () => z.strictObject({ email: email(), role: role() });

const RULES =
  'Only roles whose permissions the caller holds (403 PERMISSION_DENIED with details.missing); only an owner or an organization key touches an owner; the last ACTIVE owner can not be removed or demoted (409 INVALID_STATE).';

/**
 * The people who use the dashboard (issue 24; docs/api.md "Users and roles"). An organization-level
 * key holding `admin` (or a dashboard user whose role holds it) manages its own organization's
 * users; the operator invites into any organization and invites its own people. Not MCP tools:
 * people management is not for agents.
 */
export const USERS = defineGroup<UsersServices>()('users', {}, [
  op({
    name: 'createUser',
    summary: 'Invite a user',
    description: `Invites a person to the dashboard with a role. The answer's inviteUrl (single use, valid 72 hours) is shown this once: send it to the person. USER_EXISTS when the email is a member or invited already. ${RULES}`,
    access: 'organization',
    permission: 'admin',
    audit: AUDIT.user.invite,
    http: { method: 'POST', path: '/v1/users', status: 201 },
    body: invitation,
    output: 'invitedUserView',
    errors: ['USER_EXISTS', 'INVALID_STATE'],
    run: ({ services, auth, audit, body }) => services.users.invite(auth, audit, body),
    present: presentInvitation,
  }),
  op({
    name: 'listUsers',
    summary: 'List users',
    description: 'The INVITED and ACTIVE users of the organization, oldest first (at most 100; no invitation link).',
    access: 'organization',
    permission: 'admin',
    http: { method: 'GET', path: '/v1/users', status: 200 },
    output: 'userListView',
    errors: [],
    run: ({ services, auth }) => services.users.list(auth),
    present: presentUsers,
  }),
  op({
    name: 'getUser',
    summary: 'Get a user',
    description: "One user of the organization (a removed user or another organization's answers USER_NOT_FOUND).",
    access: 'organization',
    permission: 'admin',
    http: { method: 'GET', path: '/v1/users/{id}', status: 200 },
    params: userParam,
    output: 'userView',
    errors: ['USER_NOT_FOUND'],
    run: ({ services, auth, params }) => services.users.get(auth, params.id!),
    present: presentUser,
  }),
  op({
    name: 'updateUser',
    summary: "Change a user's role",
    description: `Changes the role; the user's dashboard sessions end (they sign in again with the new role). ${RULES}`,
    access: 'organization',
    permission: 'admin',
    audit: AUDIT.user.changeRole,
    http: { method: 'PATCH', path: '/v1/users/{id}', status: 200 },
    params: userParam,
    body: () => z.strictObject({ role: role() }),
    output: 'userView',
    errors: ['USER_NOT_FOUND', 'INVALID_STATE'],
    run: ({ services, auth, audit, params, body }) => services.users.changeRole(auth, audit, params.id!, body.role),
    present: presentUser,
  }),
  op({
    name: 'deleteUser',
    summary: 'Remove a user',
    description: `Removes the user for good (an INVITED user's link stops working) and ends their dashboard sessions. The email may be invited again. ${RULES}`,
    access: 'organization',
    permission: 'admin',
    audit: AUDIT.user.remove,
    http: { method: 'DELETE', path: '/v1/users/{id}', status: 200 },
    params: userParam,
    output: 'userView',
    errors: ['USER_NOT_FOUND', 'INVALID_STATE'],
    run: ({ services, auth, audit, params }) => services.users.remove(auth, audit, params.id!),
    present: presentUser,
  }),
  op({
    name: 'renewUserInvitation',
    summary: 'Invite a user again',
    description:
      'A new invitation link (72 hours) for a user who has not accepted yet; the previous link stops working. INVALID_STATE once accepted.',
    access: 'organization',
    permission: 'admin',
    audit: AUDIT.user.invite,
    http: { method: 'POST', path: '/v1/users/{id}/invitation', status: 201 },
    params: userParam,
    output: 'invitedUserView',
    errors: ['USER_NOT_FOUND', 'INVALID_STATE'],
    run: ({ services, auth, audit, params }) => services.users.reinvite(auth, audit, params.id!),
    present: presentInvitation,
  }),
  op({
    name: 'createOrganizationUser',
    summary: 'Invite a user into an organization (operator)',
    description:
      "The operator invites a person into an organization with any role (an organization's first owner). Same answer as POST /v1/users.",
    access: 'operator',
    permission: 'service:admin',
    audit: AUDIT.user.invite,
    http: { method: 'POST', path: '/v1/internal/organizations/{id}/users', status: 201 },
    params: { id: 'The organization id (`org_...`).' },
    body: invitation,
    output: 'invitedUserView',
    errors: ['ORGANIZATION_NOT_FOUND', 'USER_EXISTS', 'INVALID_STATE'],
    run: ({ services, auth, audit, params, body }) =>
      services.users.inviteToOrganization(auth, audit, params.id!, body),
    present: presentInvitation,
  }),
  op({
    name: 'createOperatorUser',
    summary: "Invite one of the operator's people",
    description:
      "Invites a person of the service operator (role operator: the dashboard's compliance, KYB and disputes pages). Audited in the operator's own audit partition.",
    access: 'operator',
    permission: 'service:admin',
    audit: AUDIT.user.invite,
    http: { method: 'POST', path: '/v1/internal/users', status: 201 },
    body: () => z.strictObject({ email: email() }),
    output: 'invitedUserView',
    errors: ['USER_EXISTS', 'INVALID_STATE'],
    run: ({ services, auth, audit, body }) => services.users.inviteOperator(auth, audit, body),
    present: presentInvitation,
  }),
]);
