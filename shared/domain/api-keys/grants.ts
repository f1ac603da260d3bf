import { ApiError } from '../errors.js';
import type { Permission, Principal } from '../tenancy.js';

/**
 * A key grants only what it holds (decisions.md section 1): creating an agent or an API key with a
 * permission the calling key lacks is 403 PERMISSION_DENIED with `details.missing` (the permissions
 * it lacks, in the order asked). No request can raise its own authority.
 */
export function requireHeld(principal: Principal, granted: readonly Permission[]): void {
  const held = new Set<Permission>(principal.permissions);
  const missing = [...new Set(granted)].filter((permission) => !held.has(permission));
  if (missing.length > 0) {
    throw new ApiError('PERMISSION_DENIED', `The API key cannot grant permissions it does not hold: ${missing.join(', ')}.`, { missing });
  }
}
