import { tokenHashOf } from '../customers/customer-rules.js';
import { ApiError } from '../errors.js';
import type { Permission, Principal } from '../tenancy.js';
import { ROLE_PERMISSIONS } from './roles.js';
import { INVITATION_TTL_HOURS, type AnyUserRole, type User } from './types.js';

/** Length of an invitation token (base62: about 190 bits). */
export const INVITATION_TOKEN_LENGTH = 32;

/**
 * Where the audit entries of the operator's people go (they belong to no organization): the audit
 * partition of this pseudo organization, SANDBOX (docs/api.md "Users and roles"). No key of any
 * organization reads it; the operator reads it from the table.
 */
export const OPERATOR_AUDIT_ORGANIZATION = 'operator';

/** Emails are compared and stored lower-cased (one user per email per organization). */
export const emailOf = (email: string) => email.trim().toLowerCase();

/** sha256 (hex) of an invitation token: only this is stored (the token is in `inviteUrl` once). */
export const invitationHashOf = (token: string): Promise<string> => tokenHashOf(token);

export const invitationExpiry = (now: Date): string =>
  new Date(now.getTime() + INVITATION_TTL_HOURS * 60 * 60 * 1000).toISOString();

/**
 * A caller grants only roles whose permissions it holds (decisions.md section 1 for keys, the same
 * for people): 403 PERMISSION_DENIED with `details.missing`, the permissions it lacks.
 */
export function requireGrantable(principal: Principal, role: AnyUserRole): void {
  if (principal.kind === 'OPERATOR') return;
  const held = new Set<Permission>(principal.permissions);
  const missing = ROLE_PERMISSIONS[role].filter((permission) => !held.has(permission));
  if (missing.length > 0) {
    throw new ApiError(
      'PERMISSION_DENIED',
      `You can not grant the role ${role}: it holds permissions you do not hold: ${missing.join(', ')}.`,
      { missing, role },
    );
  }
}

/**
 * Only an owner (a user), an organization key or the operator invites, changes or removes an
 * owner, or makes someone one: 403 PERMISSION_DENIED otherwise. `callerRole` is the calling user's
 * role (undefined for keys and the operator).
 */
export function requireOwnerAuthority(callerRole: AnyUserRole | undefined, touchesOwner: boolean): void {
  if (!touchesOwner || callerRole === undefined || callerRole === 'owner') return;
  throw new ApiError('PERMISSION_DENIED', 'Only an owner can invite, change or remove an owner.', {
    missing: ['owner'],
  });
}

/**
 * The last ACTIVE owner stays: removing or demoting them is 409 INVALID_STATE (an organization
 * without an owner could not manage owners any more).
 */
export function requireAnotherOwner(users: readonly User[], target: User): void {
  if (target.role !== 'owner' || target.status !== 'ACTIVE') return;
  const others = users.filter((user) => user.id !== target.id && user.role === 'owner' && user.status === 'ACTIVE');
  if (others.length === 0) {
    throw new ApiError('INVALID_STATE', 'This is the last active owner: make another owner first.', {
      reason: 'last_owner',
    });
  }
}
