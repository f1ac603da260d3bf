import * as z from 'zod/mini';
import type { ApiKeyService } from '../domain/api-keys/api-key-service.js';
import { presentApiKey, presentCreatedApiKey } from '../domain/api-keys/api-key-view.js';
import { AUDIT } from '../domain/audit/actions.js';
import { ENVIRONMENTS, ORGANIZATION_PERMISSIONS } from '../domain/tenancy.js';
import { defineGroup, operation } from './define.js';
import { dateTime, describe, name, permissionList, MAX_NAME_LENGTH } from './fields.js';
import { listOperation } from './list.js';

export interface ApiKeysServices {
  apiKeys: ApiKeyService;
}

const op = operation<ApiKeysServices>();
const list = listOperation<ApiKeysServices>();

export const API_KEYS = defineGroup<ApiKeysServices>()('api-keys', {}, [
  op({
    name: 'createApiKey',
    summary: 'Create an API key',
    description:
      'Issues an organization API key with the given permissions (only permissions the calling key holds). The raw key is in `key`, shown this once; only its SHA-256 hash is stored.',
    access: 'organization',
    permission: 'admin',
    audit: AUDIT.apiKey.create,
    http: { method: 'POST', path: '/v1/api-keys', status: 201 },
    body: () =>
      z.strictObject({
        name: name(`Name of the key (1-${MAX_NAME_LENGTH} characters).`),
        permissions: permissionList(
          z.enum(ORGANIZATION_PERMISSIONS),
          2 * ORGANIZATION_PERMISSIONS.length,
          'Permissions the key grants, each at most once (duplicates are dropped); only permissions the calling key holds (else 403 PERMISSION_DENIED with `details.missing`).',
        ),
        expiresAt: z.optional(
          dateTime(
            "When the key stops working (ISO 8601). No later than the calling key's expiry, if it has one (else 403 PERMISSION_DENIED with `details.maxExpiresAt`); absent: the calling key's expiry, or never if it has none.",
          ),
        ),
        environment: z.optional(
          describe(
            z.enum(ENVIRONMENTS),
            "Environment of the key (default: the calling key's); PRODUCTION needs activation.",
          ),
        ),
      }),
    output: 'createdApiKeyView',
    errors: ['ACTIVATION_REQUIRED'],
    run: ({ services, auth, audit, body }) => services.apiKeys.create(auth, audit, body),
    present: (created) => presentCreatedApiKey(created.apiKey, created.raw),
  }),
  list({
    name: 'listApiKeys',
    summary: 'List API keys',
    description:
      "The organization's keys in this environment (agent keys included), newest first; never the raw values.",
    access: 'organization',
    permission: 'admin',
    http: { method: 'GET', path: '/v1/api-keys', status: 200 },
    filters: () => ({}),
    output: 'apiKeyPageView',
    errors: [],
    list: ({ services, auth }, page) => services.apiKeys.list(auth, page),
    present: presentApiKey,
  }),
  op({
    name: 'revokeApiKey',
    summary: 'Revoke an API key',
    description: 'Revokes a key at once; requests with it then answer 401 API_KEY_REVOKED.',
    access: 'organization',
    permission: 'admin',
    audit: AUDIT.apiKey.revoke,
    http: { method: 'DELETE', path: '/v1/api-keys/{id}', status: 200 },
    params: { id: 'The key id (`key_...`).' },
    output: 'apiKeyView',
    errors: ['API_KEY_NOT_FOUND', 'INVALID_STATE', 'ENVIRONMENT_MISMATCH'],
    run: ({ services, auth, audit, params }) => services.apiKeys.revoke(auth, audit, params.id!),
    present: presentApiKey,
  }),
]);
