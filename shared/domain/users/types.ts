import type { Environment } from '../tenancy.js';

/**
 * The people of an organization who use the dashboard (decisions.md section 12). One role each;
 * what a role may do is ROLE_PERMISSIONS (./roles.ts), the one table docs/api.md shows.
 */
export const USER_ROLES = ['owner', 'admin', 'approver', 'developer', 'viewer'] as const;
export type UserRole = (typeof USER_ROLES)[number];

/**
 * The service operator's own people (not an organization's): they sign in to the dashboard's
 * operator pages (compliance, KYB decisions, disputes) and act with `service:admin`. Never a role
 * an organization can give.
 */
export const OPERATOR_ROLE = 'operator' as const;
export type AnyUserRole = UserRole | typeof OPERATOR_ROLE;

/** INVITED until the invitation is accepted (password and a second factor set); REMOVED is for good. */
export const USER_STATUSES = ['INVITED', 'ACTIVE', 'REMOVED'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

/** Invitations are single use and expire after 72 hours (decisions.md section 12). */
export const INVITATION_TTL_HOURS = 72;

/** A user as stored (credentials live apart: shared/domain/users/credentials.ts, owned by sign-in). */
export interface User {
  id: string;
  /** null for the operator's people (role `operator`). */
  organizationId: string | null;
  /** Lower-cased; unique per organization among INVITED and ACTIVE users. */
  email: string;
  role: AnyUserRole;
  status: UserStatus;
  createdAt: string;
  /** Who invited: a key id (`key_`), a user id (`usr_`) or `operator`/`local-demo`. */
  invitedBy: string;
  /** sha256 (hex) of the invitation token; removed when the invitation is accepted. */
  invitationHash?: string;
  invitationExpiresAt?: string;
  acceptedAt?: string;
  removedAt?: string;
  /** The environment the dashboard opens in for this user (the last one chosen). */
  environment?: Environment;
}
