import { randomBytes } from 'node:crypto';
import { issueKey } from '../auth/api-key-format.js';
import { loadConfig, SANDBOX_FUNDING_MAX, type Config } from '../config/config.js';
import { createActivationService } from '../domain/activation/activation-service.js';
import { createApiKeyService } from '../domain/api-keys/api-key-service.js';
import { systemClock, type Clock } from '../domain/clock.js';
import { newId } from '../domain/ids.js';
import { createOrganizationService } from '../domain/organizations/organization-service.js';
import type { ServiceDeps, Store } from '../domain/ports.js';
import { createWalletService } from '../domain/wallets/wallet-service.js';
import { createPaymentService } from '../domain/payments/payment-service.js';
import { createPolicyService } from '../domain/policies/policy-service.js';
import { createApprovalService } from '../domain/approvals/approval-service.js';
import { createMerchantService } from '../domain/merchants/merchant-service.js';
import { createAgentService } from '../domain/agents/agent-service.js';
import { createAuditService } from '../domain/audit/audit-service.js';
import { createComplianceService } from '../domain/compliance/compliance-service.js';
import { decrypts } from '../auth/secret-box.js';
import { SECURITY_HEADERS } from '../http/security-headers.js';
import type { HttpRuntime } from '../http/middleware.js';
import { createCursorCodec, type CursorCodec } from '../http/pagination.js';
import { createRateLimiter } from '../http/rate-limit.js';
import { createDocumentClient } from '../persistence/client.js';
import { createDynamoStore } from '../persistence/dynamo-store.js';

/**
 * The composition root: config parsed once, SDK client and store created once per process, and
 * every service built from the same deps. Handlers call `container()`; tests build their own.
 */
export interface Container extends HttpRuntime {
  config: Config;
  deps: ServiceDeps;
  services: ReturnType<typeof buildServices>;
  cursors(): Promise<CursorCodec>;
}

const CURSOR_SECRET_NAME = 'cursor-signing-secret';

function buildServices(deps: ServiceDeps, config: Config) {
  return {
    organizations: createOrganizationService(deps),
    apiKeys: createApiKeyService(deps),
    wallets: createWalletService(deps),
    activation: createActivationService(deps, { kybAutoApprove: config.kybAutoApprove }),
    payments: createPaymentService(deps),
    policies: createPolicyService(deps),
    approvals: createApprovalService(deps),
    merchants: createMerchantService(deps),
    agents: createAgentService(deps),
    audit: createAuditService(deps),
    compliance: createComplianceService(deps, { webhookEncryptionKey: config.webhookEncryptionKey, mcpAuthToken: config.mcpAuthToken, securityHeaders: SECURITY_HEADERS, decrypts }),
  };
}

export function createContainer(config: Config = loadConfig(), overrides: { clock?: Clock; store?: Store } = {}): Container {
  const clock = overrides.clock ?? systemClock;
  const store =
    overrides.store ??
    createDynamoStore({
      client: createDocumentClient({ endpoint: config.dynamodbEndpoint, region: config.region }),
      tableName: config.tableName,
    });
  const deps: ServiceDeps = {
    store,
    clock,
    ids: newId,
    issueKey,
    limits: { walletsPerEnvironment: config.walletLimitPerEnvironment, sandboxFundingMax: SANDBOX_FUNDING_MAX },
    timeScale: config.timeScale,
  };
  let cursorCodec: Promise<CursorCodec> | undefined;
  return {
    config,
    deps,
    store,
    clock,
    services: buildServices(deps, config),
    rateLimiter: createRateLimiter({ perSecond: config.rateLimit.perSecond, perMinute: config.rateLimit.perMinute }, () => clock.now().getTime()),
    publicRateLimiter: createRateLimiter({ perSecond: config.rateLimit.publicPerSecond, perMinute: config.rateLimit.publicPerSecond * 60 }, () => clock.now().getTime()),
    cursors() {
      cursorCodec ??= (config.cursorSecret
        ? Promise.resolve(config.cursorSecret)
        : store.getOrCreateSecret(CURSOR_SECRET_NAME, () => randomBytes(32).toString('hex'))
      ).then(createCursorCodec);
      return cursorCodec;
    },
  };
}

let shared: Container | undefined;

/** The process-wide container (one per Lambda instance). */
export function container(): Container {
  shared ??= createContainer();
  return shared;
}
