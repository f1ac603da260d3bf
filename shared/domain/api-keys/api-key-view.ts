import * as z from 'zod/mini';
import { ENVIRONMENTS, OPERATOR_PERMISSION, ORGANIZATION_PERMISSIONS } from '../tenancy.js';
import type { ApiKey, ApiKeyStatus } from '../types.js';
import {
  describe,
  enumOf,
  id,
  lazy,
  nullableId,
  nullableTimestamp,
  objectTag,
  pageOf,
  text,
  timestamp,
  view,
} from '../views.js';
import { everyOf } from '../enums.js';

export const API_KEY_STATUSES = everyOf<ApiKeyStatus>()(['ACTIVE', 'REVOKED']);
export const PERMISSIONS = [...ORGANIZATION_PERMISSIONS, OPERATOR_PERMISSION] as const;

/** A list of permissions (interface-spec section 5). */
export const permissions = (description: string) => describe(z.array(z.enum(PERMISSIONS)), description);

const PERMISSIONS_TEXT =
  'Permissions the key holds: wallets:read, wallets:write, payments:read, payments:write, invoices:read, invoices:write, cards:sensitive_read, admin (organization keys only; approves payments and manages keys), service:admin (operator keys only).';

const apiKeyFields = () => ({
  id: id('apiKey', 'API key id (not the secret key).'),
  object: objectTag('api_key'),
  name: text('Display name of the key.'),
  prefix: text('Public prefix of the key: `svc_test_` (sandbox), `svc_live_` (production) or `svc_admin_` (operator).'),
  last4: text('Last 4 characters of the key, to recognize it.'),
  permissions: permissions(PERMISSIONS_TEXT),
  environment: describe(
    z.nullable(z.enum(ENVIRONMENTS)),
    'Environment the key acts in (SANDBOX or PRODUCTION); null for operator keys.',
  ),
  walletId: nullableId(
    'wallet',
    'For an agent (wallet-scoped) key, the only wallet it can act on; null for organization-level keys.',
  ),
  status: enumOf(API_KEY_STATUSES, 'ACTIVE, or REVOKED: a revoked key is refused with 401 API_KEY_REVOKED.'),
  createdAt: timestamp('When the key was created.'),
  lastUsedAt: nullableTimestamp(
    'When the key last authenticated a request (updated at most once a minute), or null if never used.',
  ),
  expiresAt: nullableTimestamp(
    'When the key stops working (then refused with API_KEY_REVOKED), or null if it never expires.',
  ),
  revokedAt: nullableTimestamp('When the key was revoked, or null while it is not.'),
});

const example: z.output<z.ZodMiniObject<ReturnType<typeof apiKeyFields>>> = {
  id: 'key_8Ej03yTwZN6jwUC3a19fdOHK',
  object: 'api_key',
  name: 'Billing service',
  prefix: 'svc_test_',
  last4: 'qK7d',
  permissions: ['wallets:read', 'payments:read', 'payments:write'],
  environment: 'SANDBOX',
  walletId: null,
  status: 'ACTIVE',
  createdAt: '2026-03-14T09:30:00.000Z',
  lastUsedAt: '2026-03-15T17:04:52.000Z',
  expiresAt: null,
  revokedAt: null,
};

export const apiKeyView = /* @__PURE__ */ lazy(() =>
  view(apiKeyFields(), 'The metadata of an API key; never the key itself or its hash.', example),
);
export type ApiKeyView = z.infer<typeof apiKeyView>;

export function presentApiKey(apiKey: ApiKey): ApiKeyView {
  return {
    id: apiKey.id,
    object: 'api_key',
    name: apiKey.name,
    prefix: apiKey.prefix,
    last4: apiKey.last4,
    permissions: apiKey.permissions,
    environment: apiKey.environment,
    walletId: apiKey.walletId,
    status: apiKey.status,
    createdAt: apiKey.createdAt,
    lastUsedAt: apiKey.lastUsedAt ?? null,
    expiresAt: apiKey.expiresAt ?? null,
    revokedAt: apiKey.revokedAt ?? null,
  };
}

export const apiKeyPageView = /* @__PURE__ */ lazy(() =>
  pageOf(apiKeyView, "A page of the organization's API keys of the caller's environment (agent keys included)."),
);

export const createdApiKeyView = /* @__PURE__ */ lazy(() =>
  view(
    {
      ...apiKeyFields(),
      key: text(
        'The secret API key, shown this once only (only its SHA-256 hash is stored): store it now. Send it as `Authorization: Bearer <key>`.',
      ),
    },
    'A newly created API key: its metadata plus the secret key, returned only in this answer.',
    { ...example, key: 'svc_test_SAn5O5IUxe49NlFI0piLZ31bSdqVtFaeCfqK7d' },
  ),
);
export type CreatedApiKeyView = z.infer<typeof createdApiKeyView>;

/** The creation answer: the raw key is shown exactly once. */
export function presentCreatedApiKey(apiKey: ApiKey, raw: string): CreatedApiKeyView {
  return { ...presentApiKey(apiKey), key: raw };
}
