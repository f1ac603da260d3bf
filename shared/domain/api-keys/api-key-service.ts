import { scopeOf } from '../access.js';
import type { AuditAction } from '../audit/actions.js';
import { auditChange } from '../audit/audit.js';
import { ApiError, notFound, validationError } from '../errors.js';
import type { ServiceDeps } from '../ports.js';
import type { ApiKeyStore } from './ports.js';
import { API_KEY_STATES } from './api-key-states.js';
import { mintKey } from './grants.js';
import { canTransition, targetOf } from '../state-table.js';
import type { Environment, OrganizationPermission, RequestContext } from '../tenancy.js';
import type { ApiKey, Page, PageRequest } from '../types.js';

export interface CreateApiKeyInput {
  name: string;
  permissions: OrganizationPermission[];
  expiresAt?: string | undefined;
  environment?: Environment | undefined;
}

export interface CreatedApiKey {
  apiKey: ApiKey;
  raw: string;
}

/** General (organization-level) API keys: decisions.md section 1. */
export function createApiKeyService(deps: ServiceDeps<ApiKeyStore>) {
  const { store, clock, ids } = deps;

  async function create(ctx: RequestContext, action: AuditAction, input: CreateApiKeyInput): Promise<CreatedApiKey> {
    const scope = scopeOf(ctx.principal);
    const now = clock.now();
    if (input.expiresAt !== undefined && new Date(input.expiresAt).getTime() <= now.getTime()) {
      throw validationError('expiresAt', 'must be in the future');
    }
    const environment = input.environment ?? scope.environment;
    // A key grants only what it holds (grants.ts): checked before anything is read.
    const { apiKey, raw } = mintKey(
      deps.issueKey,
      { principal: ctx.principal },
      {
        id: ids('apiKey'),
        name: input.name,
        organizationId: scope.organizationId,
        environment,
        permissions: input.permissions,
        walletId: null,
        createdAt: now.toISOString(),
        ...(input.expiresAt ? { expiresAt: new Date(input.expiresAt).toISOString() } : {}),
      },
    );
    if (environment === 'PRODUCTION') {
      const organization = await store.getOrganization(scope.organizationId);
      if (!organization?.productionActivatedAt)
        throw new ApiError('ACTIVATION_REQUIRED', 'Production keys can be created only after activation.');
    }
    await store.commit([
      { type: 'createApiKey', apiKey },
      auditChange(
        {
          organizationId: scope.organizationId,
          environment,
          actor: ctx.actor,
          action,
          resource: 'api-key',
          resourceId: apiKey.id,
          metadata: { name: apiKey.name, permissions: apiKey.permissions, environment },
          createdAt: apiKey.createdAt,
        },
        ids,
      ),
    ]);
    return { apiKey, raw };
  }

  async function list(ctx: RequestContext, page: PageRequest): Promise<Page<ApiKey>> {
    const scope = scopeOf(ctx.principal);
    return store.listApiKeys(scope.organizationId, scope.environment, page);
  }

  /** Revocation takes effect at once: authentication reads the key item with a consistent read. */
  async function revoke(ctx: RequestContext, action: AuditAction, keyId: string): Promise<ApiKey> {
    const scope = scopeOf(ctx.principal);
    const apiKey = await store.getApiKeyById(keyId);
    if (!apiKey || apiKey.organizationId !== scope.organizationId) throw notFound('API_KEY_NOT_FOUND', keyId);
    if (apiKey.environment !== scope.environment)
      throw new ApiError('ENVIRONMENT_MISMATCH', 'Revoke this key with a key of its own environment.');
    if (!canTransition(API_KEY_STATES, apiKey.status, 'revoke')) return apiKey;
    const revokedAt = clock.now().toISOString();
    await store.commit([
      { type: 'revokeApiKey', apiKey, revokedAt },
      auditChange(
        {
          organizationId: scope.organizationId,
          environment: apiKey.environment ?? scope.environment,
          actor: ctx.actor,
          action,
          resource: 'api-key',
          resourceId: apiKey.id,
          metadata: { name: apiKey.name },
          ...(apiKey.walletId ? { walletId: apiKey.walletId } : {}),
          createdAt: revokedAt,
        },
        ids,
      ),
    ]);
    return { ...apiKey, status: targetOf(API_KEY_STATES, 'revoke'), revokedAt };
  }

  return { create, list, revoke };
}

export type ApiKeyService = ReturnType<typeof createApiKeyService>;
