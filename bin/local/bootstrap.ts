import { existsSync, readFileSync } from 'node:fs';
import { hashKey, issueKey, parseKey } from '../../shared/auth/api-key-format.js';
import { AUDIT } from '../../shared/domain/audit/actions.js';
import { OPERATOR_PERMISSION } from '../../shared/domain/tenancy.js';
import type { ApiKey } from '../../shared/domain/types.js';
import { createApiKeyStore } from '../../shared/persistence/api-key-store.js';
import { createOrganizationReader } from '../../shared/persistence/organization-store.js';
import type { Container } from '../../shared/runtime/container.js';

export const OPERATOR_KEY_NAME = 'Service operator key (local)';
export const DEMO_ORGANIZATION_NAME = 'Demo Organization';

/** Stores the operator key's hash (from SERVICE_ADMIN_KEY or newly issued); returns the raw key. */
export async function ensureOperatorKey(app: Container, configured: string | undefined): Promise<string> {
  let raw = configured;
  if (raw !== undefined && parseKey(raw)?.kind !== 'OPERATOR') {
    throw new Error('SERVICE_ADMIN_KEY is not a valid operator key (svc_admin_ + 32 base62 characters + checksum).');
  }
  const issued = raw ? { raw, hash: hashKey(raw), prefix: 'svc_admin_', last4: raw.slice(-4) } : issueKey('OPERATOR');
  raw = issued.raw;
  if (await app.core.authKeys.getApiKeyByHash(issued.hash)) return raw;
  const apiKey: ApiKey = {
    id: app.core.ids('apiKey'),
    hash: issued.hash,
    name: OPERATOR_KEY_NAME,
    prefix: issued.prefix,
    last4: issued.last4,
    organizationId: null,
    environment: null,
    permissions: [OPERATOR_PERMISSION],
    walletId: null,
    status: 'ACTIVE',
    createdAt: app.clock.now().toISOString(),
  };
  await createApiKeyStore(app.core.table).commit([{ type: 'createApiKey', apiKey }]);
  return raw;
}

export interface DemoOrganization {
  organizationId: string;
  sandboxKey: string;
}

/** Creates the demo organization, or reuses the one in an existing credentials file (DATA_DIR runs). */
export async function ensureDemoOrganization(
  app: Container,
  credentialsFile: string,
  persistent: boolean,
): Promise<DemoOrganization> {
  if (persistent && existsSync(credentialsFile)) {
    try {
      const previous = JSON.parse(readFileSync(credentialsFile, 'utf8')) as Partial<DemoOrganization>;
      if (
        previous.organizationId &&
        previous.sandboxKey &&
        (await createOrganizationReader(app.core.table).getOrganization(previous.organizationId))
      ) {
        return { organizationId: previous.organizationId, sandboxKey: previous.sandboxKey };
      }
    } catch {
      // An unreadable credentials file is replaced below.
    }
  }
  const created = await app.services.organizations.create(
    {
      principal: {
        kind: 'OPERATOR',
        keyId: 'local-bootstrap',
        organizationId: null,
        environment: null,
        permissions: [OPERATOR_PERMISSION],
        walletId: null,
      },
      actor: { actorType: 'SYSTEM', actorId: 'local-bootstrap', ipAddress: '127.0.0.1' },
      requestId: 'bootstrap',
    },
    AUDIT.organization.create,
    { name: DEMO_ORGANIZATION_NAME },
  );
  return { organizationId: created.organization.id, sandboxKey: created.sandboxKey };
}
