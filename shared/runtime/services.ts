/**
 * One builder per service, each `(core, overrides = {}) => service`: over its own area's store
 * unless `overrides.store` names another (tests), plus what else a test may replace. Separate
 * named exports and no module-level code, so a function that imports one builder bundles only
 * that area (esbuild drops the others); the container (shared/runtime/container.ts) alone maps
 * every area to its builder.
 */
import { createActivationService, type ActivationService } from '../domain/activation/activation-service.js';
import type { ActivationStore } from '../domain/activation/ports.js';
import { createAgentService, type AgentService } from '../domain/agents/agent-service.js';
import type { AgentStore } from '../domain/agents/ports.js';
import { createApiKeyService, type ApiKeyService } from '../domain/api-keys/api-key-service.js';
import type { ApiKeyStore } from '../domain/api-keys/ports.js';
import { createApprovalService, type ApprovalService } from '../domain/approvals/approval-service.js';
import type { ApprovalStore } from '../domain/approvals/ports.js';
import { createAuditService, type AuditService } from '../domain/audit/audit-service.js';
import type { AuditStore } from '../domain/audit/ports.js';
import { createComplianceService, type ComplianceService } from '../domain/compliance/compliance-service.js';
import type { ComplianceStore } from '../domain/compliance/ports.js';
import { createMerchantService, type MerchantService } from '../domain/merchants/merchant-service.js';
import type { MerchantStore } from '../domain/merchants/ports.js';
import { createOrganizationService, type OrganizationService } from '../domain/organizations/organization-service.js';
import type { OrganizationStore } from '../domain/organizations/ports.js';
import { createPaymentService, type PaymentService } from '../domain/payments/payment-service.js';
import type { PaymentStore } from '../domain/payments/ports.js';
import { createPolicyService, type PolicyService } from '../domain/policies/policy-service.js';
import type { PolicyStore } from '../domain/policies/ports.js';
import type { WalletStore } from '../domain/wallets/ports.js';
import { createWalletService, type WalletService } from '../domain/wallets/wallet-service.js';
import { SECURITY_HEADERS } from '../http/security-headers.js';
import { createActivationStore } from '../persistence/activation-store.js';
import { createAgentStore } from '../persistence/agent-store.js';
import { createApiKeyStore } from '../persistence/api-key-store.js';
import { createApprovalStore } from '../persistence/approval-store.js';
import { createAuditStore } from '../persistence/audit-store.js';
import { createComplianceStore } from '../persistence/compliance-store.js';
import { createMerchantStore } from '../persistence/merchant-store.js';
import { createOrganizationStore } from '../persistence/organization-store.js';
import { createPaymentStore } from '../persistence/payment-store.js';
import { createPolicyStore } from '../persistence/policy-store.js';
import { createWalletStore } from '../persistence/wallet-store.js';
import { createJournalProjector } from '../domain/ledger/journal-projector.js';
import { createJournalStreamConsumer } from '../persistence/journal-stream.js';
import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { SQSClient } from '@aws-sdk/client-sqs';
import { createEventService, type EventService } from '../domain/events/event-service.js';
import type { EventStore } from '../domain/events/ports.js';
import type { EventPublisher } from '../domain/ledger/journal-projector.js';
import { createDeliveryService, type DeliveryService } from '../domain/webhooks/delivery-service.js';
import type { DeliveryQueue, DeliveryStore, SecretCipher, WebhookSender, WebhookStore } from '../domain/webhooks/ports.js';
import { createWebhookService, type WebhookService } from '../domain/webhooks/webhook-service.js';
import { localDeliveryQueue, sqsDeliveryQueue } from '../events/delivery-queue.js';
import { archivingPublisher, eventBridgePublisher, inProcessPublisher } from '../events/publishers.js';
import { createEventStore } from '../persistence/event-store.js';
import { createWebhookStore } from '../persistence/webhook-store.js';
import { httpSender, resolveAll } from '../webhooks/http-sender.js';
import { secretCipher, webhookKeySource } from '../webhooks/secret-cipher.js';
import { newWebhookSecret, webhookHeaders } from '../webhooks/signature.js';
import { checkWebhookUrl } from '../webhooks/url-guard.js';
import { EXPIRY_QUEUE, WEBHOOK_DELIVERY_QUEUE } from '../workers.js';
import { SchedulerClient } from '@aws-sdk/client-scheduler';
import type { ExpiryScheduler } from '../domain/expiries/ports.js';
import { eventBridgeExpiryScheduler, localExpiryScheduler } from '../events/expiry-scheduler.js';
import { createProjectionStore } from '../persistence/projection-store.js';
import { KMSClient } from '@aws-sdk/client-kms';
import type { Sealer } from '../domain/sealing.js';
import { kmsSealer } from '../sealing/kms-sealer.js';
import { localSealer, missingKeySealer } from '../sealing/local-sealer.js';
import { createBankAccountService, type BankAccountService } from '../domain/bank-accounts/bank-account-service.js';
import type { BankAccountStore } from '../domain/bank-accounts/ports.js';
import { createBankAccountStore } from '../persistence/bank-account-store.js';
import { randomInt } from 'node:crypto';
import type { Environment } from '../domain/tenancy.js';
import type { TransferRail, TransferStore, TransferWorkflows } from '../domain/transfers/ports.js';
import { sandboxRail, unconfiguredRail } from '../domain/transfers/sandbox-rail.js';
import { createTransferService, type TransferService } from '../domain/transfers/transfer-service.js';
import { createTransferStore } from '../persistence/transfer-store.js';
import { transferWorkflows } from './workflows.js';
import type { Core } from './core.js';
import type { CardIssuer, CardStore } from '../domain/cards/ports.js';
import { createCardService, type CardService } from '../domain/cards/card-service.js';
import { sandboxIssuer, unconfiguredIssuer } from '../domain/cards/sandbox-issuer.js';
import { createCardStore } from '../persistence/card-store.js';

export function organizationService(core: Core, { store = createOrganizationStore(core.table) }: { store?: OrganizationStore } = {}): OrganizationService {
  return createOrganizationService({ ...core.deps, store });
}

export function apiKeyService(core: Core, { store = createApiKeyStore(core.table) }: { store?: ApiKeyStore } = {}): ApiKeyService {
  return createApiKeyService({ ...core.deps, store });
}

export function walletService(core: Core, { store = createWalletStore(core.table) }: { store?: WalletStore } = {}): WalletService {
  return createWalletService({ ...core.deps, store });
}

export function activationService(core: Core, { store = createActivationStore(core.table) }: { store?: ActivationStore } = {}): ActivationService {
  return createActivationService({ ...core.deps, store }, { kybAutoApprove: core.config.kybAutoApprove });
}

export function paymentService(core: Core, { store = createPaymentStore(core.table) }: { store?: PaymentStore } = {}): PaymentService {
  return createPaymentService({ ...core.deps, store }, { expiries: expiryScheduler(core) });
}

/** One-time expiries: EventBridge Scheduler in AWS (EXPIRY_SCHEDULE_GROUP, ...), the in-process scheduler locally. */
export function expiryScheduler(core: Core): ExpiryScheduler {
  const { config } = core;
  return config.expiryScheduling ? eventBridgeExpiryScheduler(new SchedulerClient({ region: config.region }), config.expiryScheduling) : localExpiryScheduler(EXPIRY_QUEUE, () => core.clock.now().getTime());
}

export function policyService(core: Core, { store = createPolicyStore(core.table) }: { store?: PolicyStore } = {}): PolicyService {
  return createPolicyService({ ...core.deps, store });
}

export function approvalService(core: Core, { store = createApprovalStore(core.table) }: { store?: ApprovalStore } = {}): ApprovalService {
  return createApprovalService({ ...core.deps, store });
}

export function merchantService(core: Core, { store = createMerchantStore(core.table) }: { store?: MerchantStore } = {}): MerchantService {
  return createMerchantService({ ...core.deps, store });
}

export function agentService(core: Core, { store = createAgentStore(core.table) }: { store?: AgentStore } = {}): AgentService {
  return createAgentService({ ...core.deps, store });
}

export function auditService(core: Core, { store = createAuditStore(core.table) }: { store?: AuditStore } = {}): AuditService {
  return createAuditService({ ...core.deps, store });
}

export function complianceService(core: Core, { store = createComplianceStore(core.table) }: { store?: ComplianceStore } = {}): ComplianceService {
  const { config } = core;
  const cipher = cipherOf(core);
  return createComplianceService(
    { ...core.deps, store },
    {
      webhookKeyReadable: cipher
        ? () =>
            cipher.ready().then(
              () => true,
              (error: unknown) => {
                console.error('compliance: the webhook encryption key could not be read', error instanceof Error ? error.message : 'unknown error');
                return false;
              },
            )
        : undefined,
      mcpAuthTokenConfigured: config.mcpAuthToken !== undefined || config.mcpAuthTokenSecretArn !== undefined,
      securityHeaders: SECURITY_HEADERS,
      decrypts: (stored) => (cipher ? cipher.decrypt(stored).then(() => true, () => false) : Promise.resolve(false)),
    },
  );
}

/** The service's event bus: EventBridge in AWS (EVENT_BUS_NAME), the in-process bus locally. */
export function eventBus(core: Core): EventPublisher {
  const { config } = core;
  return config.eventBusName ? eventBridgePublisher(new EventBridgeClient({ region: config.region }), config.eventBusName) : inProcessPublisher;
}

/**
 * The journal's projector as the table stream's consumer (functions/journal-projector): journal
 * records and outbox items become events, kept for the events API and put on the bus.
 */
export function journalProjector(core: Core, bus: EventPublisher = eventBus(core)) {
  const publisher = archivingPublisher(createEventStore(core.table, { clock: core.clock }), bus);
  return createJournalStreamConsumer(createJournalProjector({ store: createProjectionStore(core.table), publisher }), publisher);
}

/** The queue of webhook attempts: SQS in AWS (WEBHOOK_QUEUE_URL), the in-process queue locally. */
export function deliveryQueue(core: Core): DeliveryQueue {
  const { config } = core;
  if (config.webhookQueueUrl) {
    if (!config.webhookDeadLetterUrl) throw new Error('WEBHOOK_QUEUE_URL needs WEBHOOK_DLQ_URL');
    return sqsDeliveryQueue(new SQSClient({ region: config.region }), config.webhookQueueUrl, config.webhookDeadLetterUrl);
  }
  return localDeliveryQueue(WEBHOOK_DELIVERY_QUEUE);
}

export function eventService(core: Core, { store = createEventStore(core.table, { clock: core.clock }) }: { store?: EventStore } = {}): EventService {
  return createEventService({ store, clock: core.clock });
}

const ciphers = new WeakMap<Core, SecretCipher | undefined>();

/**
 * Webhook secrets at rest under WEBHOOK_ENCRYPTION_KEY, or its secret in AWS (read once per
 * process, shared by the services of one core); undefined when neither is set.
 */
function cipherOf(core: Core): SecretCipher | undefined {
  if (!ciphers.has(core)) {
    const key = webhookKeySource(core.config);
    ciphers.set(core, key ? secretCipher(key) : undefined);
  }
  return ciphers.get(core);
}

/** The webhook-delivery worker's service (functions/webhook-delivery). */
export function deliveryService(core: Core, overrides: { store?: DeliveryStore; queue?: DeliveryQueue; sender?: WebhookSender } = {}): DeliveryService {
  const secrets = cipherOf(core);
  return createDeliveryService({
    store: overrides.store ?? createWebhookStore(core.table),
    queue: overrides.queue ?? deliveryQueue(core),
    sender: overrides.sender ?? httpSender(resolveAll, { localRun: core.config.localRun }),
    secrets: secrets ?? secretCipher(async () => undefined),
    sign: webhookHeaders,
    clock: core.clock,
    timeScale: core.config.timeScale,
  });
}

export function webhookService(core: Core, { store = createWebhookStore(core.table) }: { store?: WebhookStore & DeliveryStore } = {}): WebhookService {
  const queue = deliveryQueue(core);
  return createWebhookService({
    store,
    clock: core.clock,
    ids: core.ids,
    secrets: cipherOf(core),
    checkUrl: async (url, environment) => {
      const checked = await checkWebhookUrl(url, environment, resolveAll, { localRun: core.config.localRun });
      return checked.ok ? { ok: true, url: checked.url.toString() } : checked;
    },
    newSecret: newWebhookSecret,
    queue,
    deliveries: deliveryService(core, { store, queue }),
  });
}

/**
 * Sensitive values at rest (bank account numbers, card data): KMS envelopes under DATA_KEY_ID when
 * set (AWS), else AES-256-GCM under DATA_ENCRYPTION_KEY (the local run); with neither, sealing fails.
 */
export function dataSealer(core: Core): Sealer {
  const { config } = core;
  if (config.dataKeyId) return kmsSealer(new KMSClient({ region: config.region }), config.dataKeyId);
  return config.dataEncryptionKey ? localSealer(config.dataEncryptionKey) : missingKeySealer;
}

/** Production micro-deposits: 1 to 99 cents each, drawn from the CSPRNG. */
const MICRO_DEPOSIT_CENTS = { min: 1, maxExclusive: 100 };

export function bankAccountService(core: Core, { store = createBankAccountStore(core.table) }: { store?: BankAccountStore } = {}): BankAccountService {
  return createBankAccountService({ store, clock: core.clock, ids: core.ids, sealer: dataSealer(core), randomCents: () => randomInt(MICRO_DEPOSIT_CENTS.min, MICRO_DEPOSIT_CENTS.maxExclusive) });
}

/** Transfers: the sandbox rail in SANDBOX; in PRODUCTION no rail provider is configured yet, so live transfers fail at submission. */
export function transferService(core: Core, overrides: { store?: TransferStore; workflows?: TransferWorkflows; rails?: Record<Environment, TransferRail>; expiries?: ExpiryScheduler | null } = {}): TransferService {
  return createTransferService(
    { ...core.deps, store: overrides.store ?? createTransferStore(core.table) },
    {
      rails: overrides.rails ?? { SANDBOX: sandboxRail(core.clock, core.config.timeScale), PRODUCTION: unconfiguredRail },
      sealer: dataSealer(core),
      workflows: overrides.workflows ?? transferWorkflows(core),
      // null: no expiry schedules (the reconciler, whose function has no Scheduler grant, releases clearings itself).
      expiries: overrides.expiries === null ? undefined : (overrides.expiries ?? expiryScheduler(core)),
    },
  );
}

/** A uniformly random decimal digit from the CSPRNG (card numbers and CVCs). */
const randomDigit = () => randomInt(0, 10);

/**
 * The card service of functions that never issue a card nor open its details (the card network's
 * authorizations, the expiry sweep's reversals): no issuer, so no data sealer (nor KMS client) in
 * their bundles.
 */
export function cardAuthorizationService(core: Core): CardService {
  return createCardService({ ...core.deps, store: createCardStore(core.table) }, { issuers: { SANDBOX: unconfiguredIssuer, PRODUCTION: unconfiguredIssuer } });
}

/** Cards: the sandbox issuer (numbers and CVCs sealed by the data sealer) in SANDBOX; in PRODUCTION no issuing processor is configured yet, so live cards are refused. */
export function cardService(core: Core, overrides: { store?: CardStore; issuers?: Record<Environment, CardIssuer> } = {}): CardService {
  return createCardService(
    { ...core.deps, store: overrides.store ?? createCardStore(core.table) },
    { issuers: overrides.issuers ?? { SANDBOX: sandboxIssuer(dataSealer(core), randomDigit), PRODUCTION: unconfiguredIssuer } },
  );
}
