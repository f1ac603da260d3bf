import { ApiError } from '../domain/errors.js';
import type { ApiKeyAuthReader } from '../domain/api-keys/ports.js';
import { keyReach, OPERATOR_PERMISSION, type Permission, type Principal } from '../domain/tenancy.js';
import type { ApiKey } from '../domain/types.js';
import { hashesEqual, hashKey, parseKey } from './api-key-format.js';

/** lastUsedAt is written at most once per key per minute. */
export const LAST_USED_WRITE_INTERVAL_MS = 60_000;

export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/**
 * Resolves an Authorization header to a principal: shape and checksum first (no lookup for a
 * mistyped key), then one consistent read by SHA-256 hash, so a revocation is seen at once.
 */
export async function authenticate(
  authKeys: Pick<ApiKeyAuthReader, 'getApiKeyByHash'>,
  authorization: string | undefined,
  now: Date,
): Promise<{ principal: Principal; apiKey: ApiKey }> {
  const token = bearerToken(authorization);
  if (!token) throw new ApiError('UNAUTHORIZED', 'Send the API key as "Authorization: Bearer <key>".');
  const parsed = parseKey(token);
  if (!parsed) throw new ApiError('UNAUTHORIZED', 'The API key is not valid.');
  const hash = hashKey(parsed.raw);
  const apiKey = await authKeys.getApiKeyByHash(hash);
  if (!apiKey || !hashesEqual(apiKey.hash, hash)) throw new ApiError('UNAUTHORIZED', 'The API key is not valid.');
  if (apiKey.status !== 'ACTIVE') throw new ApiError('API_KEY_REVOKED', 'The API key is revoked.');
  if (apiKey.expiresAt && new Date(apiKey.expiresAt).getTime() <= now.getTime()) {
    throw new ApiError('API_KEY_REVOKED', 'The API key has expired.');
  }
  if (parsed.kind !== (apiKey.environment ?? 'OPERATOR'))
    throw new ApiError('UNAUTHORIZED', 'The API key is not valid.');
  return { principal: principalOf(apiKey), apiKey };
}

export function principalOf(apiKey: ApiKey): Principal {
  const operator = apiKey.organizationId === null;
  return {
    kind: operator ? 'OPERATOR' : apiKey.walletId ? 'AGENT' : 'ORGANIZATION',
    keyId: apiKey.id,
    organizationId: apiKey.organizationId,
    environment: apiKey.environment,
    permissions: keyReach(apiKey.permissions),
    walletId: apiKey.walletId,
    ...(apiKey.expiresAt ? { expiresAt: apiKey.expiresAt } : {}),
    ...(apiKey.createdByUserRole ? { userRole: apiKey.createdByUserRole } : {}),
  };
}

export function hasPermission(principal: Principal, permission: Permission): boolean {
  return principal.permissions.includes(permission);
}

export function requirePermission(principal: Principal, permission: Permission | undefined): void {
  if (permission === undefined) return;
  if (permission === OPERATOR_PERMISSION && principal.kind !== 'OPERATOR') {
    throw new ApiError('PERMISSION_DENIED', 'This endpoint is reserved for the service operator.');
  }
  if (!hasPermission(principal, permission)) {
    throw new ApiError('PERMISSION_DENIED', `The API key lacks the "${permission}" permission.`, {
      required: permission,
    });
  }
}
