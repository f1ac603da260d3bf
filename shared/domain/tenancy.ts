/** Organizations have two isolated environments (decisions.md section 1). */
export const ENVIRONMENTS = ['SANDBOX', 'PRODUCTION'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

/** Organization permissions of interface-spec section 5, plus `admin` (decisions.md section 1). */
export const ORGANIZATION_PERMISSIONS = [
  'wallets:read',
  'wallets:write',
  'payments:read',
  'payments:write',
  'invoices:read',
  'invoices:write',
  'cards:sensitive_read',
  'admin',
] as const;
export type OrganizationPermission = (typeof ORGANIZATION_PERMISSIONS)[number];

/** Held only by the service operator's `svc_admin_` keys. */
export const OPERATOR_PERMISSION = 'service:admin' as const;
/**
 * Deciding approvals (decisions.md section 3: an organization key holding `admin`, or a dashboard
 * user). Never stored on a key: a key holding `admin` holds it too (derived when the key is
 * authenticated), so the approver role can decide without managing keys and webhooks, and the
 * developer role can manage them without deciding payments (shared/domain/users/roles.ts).
 */
export const APPROVALS_DECIDE_PERMISSION = 'approvals:decide' as const;
/** What a key's stored permissions reach: themselves and, with `admin`, approvals:decide (the one rule; authentication and grants use it). */
export function keyReach(stored: readonly Permission[]): Permission[] {
  return stored.includes('admin') ? [...stored, APPROVALS_DECIDE_PERMISSION] : [...stored];
}

/** What an API key stores and shows. */
export type KeyPermission = OrganizationPermission | typeof OPERATOR_PERMISSION;
/** What a principal may hold: a key's permissions and the derived approvals:decide. */
export type Permission = KeyPermission | typeof APPROVALS_DECIDE_PERMISSION;

/** Permissions an agent (wallet-scoped) key may hold: never `admin`, never `service:admin`. */
export const AGENT_PERMISSIONS = ORGANIZATION_PERMISSIONS.filter(
  (permission): permission is Exclude<OrganizationPermission, 'admin'> => permission !== 'admin',
);

export const DEFAULT_AGENT_PERMISSIONS: OrganizationPermission[] = [
  'wallets:read',
  'wallets:write',
  'payments:read',
  'payments:write',
];

/**
 * A dashboard user acts as an organization-level principal (kind ORGANIZATION, `keyId` = its
 * `usr_` id, the role's permissions) or, for the operator's people, as OPERATOR; the actor (USER)
 * tells audit entries apart from keys.
 */
export type PrincipalKind = 'ORGANIZATION' | 'AGENT' | 'OPERATOR';

/** Who is calling: derived from the API key by shared/auth, consumed by every service. */
export interface Principal {
  kind: PrincipalKind;
  keyId: string;
  organizationId: string | null;
  environment: Environment | null;
  permissions: Permission[];
  /** Set for wallet-scoped (agent) keys only. */
  walletId: string | null;
  /**
   * A dashboard user's role (set by the dashboard edge), or, for a key, the role of the person who
   * minted it (or minted the key that minted it): the users area's owner rule applies to it, so a
   * key a non-owner made can not make, change or remove an owner. Absent for keys no person made.
   */
  userRole?: string | undefined;
  /**
   * When the calling key stops working; absent if it never does (operator keys never do). A key
   * can not mint a key that outlives it (shared/domain/api-keys/grants.ts).
   */
  expiresAt?: string | undefined;
}

/** Actor written into audit entries (interface-spec 2.11). */
export interface Actor {
  actorType: 'API_KEY' | 'USER' | 'SYSTEM';
  actorId: string;
  ipAddress: string;
}

/** What a service needs to know about the request that is acting. */
export interface RequestContext {
  principal: Principal;
  actor: Actor;
  requestId: string;
  /** The client's User-Agent (bounded), where an edge has one: `user.*` audit entries carry it (decisions.md section 12). */
  userAgent?: string | undefined;
}

/** The most of a User-Agent header an audit entry keeps. */
export const MAX_USER_AGENT_LENGTH = 256;

export interface OrganizationScope {
  organizationId: string;
  environment: Environment;
}
