import { ApiError } from '../errors.js';
import type { KeyIssuer } from '../ports.js';
import { keyReach, type Environment, type KeyPermission, type Permission, type Principal } from '../tenancy.js';
import type { ApiKey } from '../types.js';

/**
 * A key grants only what it holds (decisions.md section 1): minting a key (an agent's, a template
 * agent's, a rotated agent key, a general API key) with a permission the calling key lacks is 403
 * PERMISSION_DENIED with `details.missing` (the permissions it lacks, in the order asked). No
 * request can raise its own authority.
 */
export function requireHeld(principal: Principal, granted: readonly Permission[]): void {
  const held = new Set<Permission>(principal.permissions);
  // A key holding `admin` decides approvals (derived at authentication): granting admin grants that too.
  const reach = keyReach(granted);
  const missing = [...new Set(reach)].filter((permission) => !held.has(permission));
  if (missing.length > 0) {
    throw new ApiError(
      'PERMISSION_DENIED',
      `The API key cannot grant permissions it does not hold: ${missing.join(', ')}.`,
      { missing },
    );
  }
}

/**
 * A key's lifetime is part of what it holds (decisions.md section 1; docs/api.md "API keys"): a key
 * that expires can not mint a key that outlives it. A lifetime asked for beyond the grantor's
 * expiry (a later time, or never) is 403 PERMISSION_DENIED with `details: {field: 'expiresAt',
 * maxExpiresAt, expiresAt}`; none asked, the new key expires with the grantor. A grantor that never
 * expires bounds nothing. Returns the new key's expiry (undefined: never).
 */
export function grantedExpiry(principal: Principal, asked: string | null | undefined): string | undefined {
  const max = principal.expiresAt;
  if (asked === undefined) return max;
  if (max !== undefined && (asked === null || Date.parse(asked) > Date.parse(max))) {
    const outlives = asked === null ? 'never expires' : `expires later (${asked})`;
    throw new ApiError(
      'PERMISSION_DENIED',
      `The API key expires at ${max}: it cannot grant a key that outlives it, and this one ${outlives}.`,
      { field: 'expiresAt', maxExpiresAt: max, expiresAt: asked },
    );
  }
  return asked ?? undefined;
}

/** What a new key is: everything but its secret and state, which minting adds. */
export interface KeyGrant {
  id: string;
  name: string;
  organizationId: string;
  environment: Environment;
  permissions: readonly KeyPermission[];
  /** The agent's wallet for a wallet-scoped key; null for an organization-level key. */
  walletId: string | null;
  createdAt: string;
  /**
   * The lifetime asked for: a time; null, never (a rotated key that had no expiry); absent, none
   * asked (the new key expires with the grantor, if the grantor does: `grantedExpiry`).
   */
  expiresAt?: string | null | undefined;
}

/**
 * Who grants a new key: the calling key (its permissions and expiry bound the grant), or the
 * operator creating an organization, whose first key is the root of that organization's authority
 * (decisions.md section 1: it holds every organization permission, the operator's own key holds none
 * of them; it has the lifetime asked for, none: operator keys carry no expiry).
 */
export type Grantor = { principal: Principal } | { organizationRoot: true };

export interface MintedKey {
  apiKey: ApiKey;
  /** The raw key, returned to the caller once; only its hash is stored. */
  raw: string;
}

/**
 * The one way a key comes into being: the grant checked against the grantor (permissions, then
 * lifetime), then the secret issued. Every path that mints or re-mints a key (organization
 * creation, API key creation, agent creation and templates, agent key rotation) calls this, so none
 * can skip the check.
 */
export function mintKey(issueKey: KeyIssuer, grantor: Grantor, grant: KeyGrant): MintedKey {
  if ('principal' in grantor) requireHeld(grantor.principal, grant.permissions);
  const { expiresAt: asked, ...fields } = grant;
  const expiresAt = 'principal' in grantor ? grantedExpiry(grantor.principal, asked) : (asked ?? undefined);
  const issued = issueKey(grant.environment);
  const apiKey: ApiKey = {
    ...fields,
    hash: issued.hash,
    prefix: issued.prefix,
    last4: issued.last4,
    permissions: [...new Set(grant.permissions)],
    status: 'ACTIVE',
    ...(expiresAt ? { expiresAt } : {}),
    ...('principal' in grantor && grantor.principal.userRole ? { createdByUserRole: grantor.principal.userRole } : {}),
  };
  return { apiKey, raw: issued.raw };
}
