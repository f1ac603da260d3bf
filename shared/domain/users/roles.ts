import {
  APPROVALS_DECIDE_PERMISSION as APPROVALS_DECIDE,
  OPERATOR_PERMISSION,
  ORGANIZATION_PERMISSIONS,
  type Permission,
} from '../tenancy.js';
import type { AnyUserRole, UserRole } from './types.js';

/**
 * What each role may do, as the API permissions the user's requests carry (the dashboard calls the
 * same operations as a key would, with these permissions). The one table: docs/api.md "Users and
 * roles" prints it. Beyond it: only an owner may invite, change or remove an owner; the last owner
 * can not be removed or demoted; a user grants only roles whose permissions they hold.
 */
export const ROLE_PERMISSIONS: Readonly<Record<AnyUserRole, readonly Permission[]>> = {
  owner: [...ORGANIZATION_PERMISSIONS, APPROVALS_DECIDE],
  admin: [...ORGANIZATION_PERMISSIONS, APPROVALS_DECIDE],
  approver: ['wallets:read', 'payments:read', 'invoices:read', APPROVALS_DECIDE],
  developer: ['wallets:read', 'wallets:write', 'payments:read', 'invoices:read', 'invoices:write', 'admin'],
  viewer: ['wallets:read', 'payments:read', 'invoices:read'],
  operator: [OPERATOR_PERMISSION],
};

export const rolePermissions = (role: AnyUserRole): readonly Permission[] => ROLE_PERMISSIONS[role];

/** Role names in order of reach, for pickers and docs. */
export const ROLE_LABELS: Readonly<Record<UserRole, string>> = {
  owner: 'Owner',
  admin: 'Admin',
  approver: 'Approver',
  developer: 'Developer',
  viewer: 'Viewer',
};
