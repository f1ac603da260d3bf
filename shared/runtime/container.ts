import { loadConfig, type Config } from '../config/config.js';
import type { ActivationStore } from '../domain/activation/ports.js';
import type { AgentStore } from '../domain/agents/ports.js';
import type { ApiKeyStore } from '../domain/api-keys/ports.js';
import type { ApprovalStore } from '../domain/approvals/ports.js';
import type { AuditStore } from '../domain/audit/ports.js';
import type { BankAccountStore } from '../domain/bank-accounts/ports.js';
import type { Clock } from '../domain/clock.js';
import type { ComplianceStore } from '../domain/compliance/ports.js';
import type { MerchantStore } from '../domain/merchants/ports.js';
import type { OrganizationStore } from '../domain/organizations/ports.js';
import type { PaymentStore } from '../domain/payments/ports.js';
import type { PolicyStore } from '../domain/policies/ports.js';
import type { WalletStore } from '../domain/wallets/ports.js';
import { core as sharedCore, createCore, type Core, type TableContext } from './core.js';
import {
  activationService,
  agentService,
  apiKeyService,
  approvalService,
  auditService,
  bankAccountService,
  complianceService,
  merchantService,
  organizationService,
  paymentService,
  policyService,
  transferService,
  walletService,
  cardService,
  eventService,
  webhookService,
} from './services.js';
import type { TransferStore } from '../domain/transfers/ports.js';
import type { CardStore } from '../domain/cards/ports.js';
import type { EventStore } from '../domain/events/ports.js';
import type { DeliveryStore, WebhookStore } from '../domain/webhooks/ports.js';
import type { AreaServices } from '../operations/index.js';

/** Every service, for tests, the local run and edges that serve every area (MCP). */
export interface Services {
  organizations: ReturnType<typeof organizationService>;
  apiKeys: ReturnType<typeof apiKeyService>;
  wallets: ReturnType<typeof walletService>;
  activation: ReturnType<typeof activationService>;
  payments: ReturnType<typeof paymentService>;
  policies: ReturnType<typeof policyService>;
  approvals: ReturnType<typeof approvalService>;
  merchants: ReturnType<typeof merchantService>;
  agents: ReturnType<typeof agentService>;
  audit: ReturnType<typeof auditService>;
  compliance: ReturnType<typeof complianceService>;
  bankAccounts: ReturnType<typeof bankAccountService>;
  transfers: ReturnType<typeof transferService>;
  cards: ReturnType<typeof cardService>;
  webhooks: ReturnType<typeof webhookService>;
  events: ReturnType<typeof eventService>;
}

/**
 * The container holds every service an operation of the catalog needs (the MCP server runs them
 * all from it): a group whose services are missing here fails to compile. (Until 2026-11-23 the
 * webhook and event tools of MCP found no service and answered 500.)
 */
const holdsEveryArea: Services extends AreaServices ? true : never = true;
void holdsEveryArea;

/** Stores to use instead of the table's (tests: fault injection). */
export interface StoreOverrides {
  organizations?: OrganizationStore;
  apiKeys?: ApiKeyStore;
  wallets?: WalletStore;
  activation?: ActivationStore;
  payments?: PaymentStore;
  policies?: PolicyStore;
  approvals?: ApprovalStore;
  merchants?: MerchantStore;
  agents?: AgentStore;
  audit?: AuditStore;
  compliance?: ComplianceStore;
  bankAccounts?: BankAccountStore;
  transfers?: TransferStore;
  cards?: CardStore;
  webhooks?: WebhookStore & DeliveryStore;
  events?: EventStore;
}

/**
 * The core and every service, each built on first use. Functions do not use it (they build their
 * own area's service from the core); tests, the local run and the MCP edge do.
 */
export interface Container {
  config: Config;
  clock: Clock;
  core: Core;
  services: Services;
}

export function createContainer(config: Config = loadConfig(), overrides: { clock?: Clock; table?: TableContext; stores?: StoreOverrides } = {}): Container {
  return containerOf(createCore(config, overrides), overrides.stores);
}

function containerOf(core: Core, stores: StoreOverrides = {}): Container {
  const built: Partial<Services> = {};
  const lazy = <K extends keyof Services>(name: K, build: () => Services[K]) => ({
    get: () => (built[name] ??= build()),
    enumerable: true,
  });
  // Typed per service, so a service missing here fails to compile like one missing from Services.
  const descriptors: { [K in keyof Services]: { get: () => Services[K]; enumerable: boolean } } = {
    organizations: lazy('organizations', () => organizationService(core, stores.organizations)),
    apiKeys: lazy('apiKeys', () => apiKeyService(core, stores.apiKeys)),
    wallets: lazy('wallets', () => walletService(core, stores.wallets)),
    activation: lazy('activation', () => activationService(core, stores.activation)),
    payments: lazy('payments', () => paymentService(core, stores.payments)),
    policies: lazy('policies', () => policyService(core, stores.policies)),
    approvals: lazy('approvals', () => approvalService(core, stores.approvals)),
    merchants: lazy('merchants', () => merchantService(core, stores.merchants)),
    agents: lazy('agents', () => agentService(core, stores.agents)),
    audit: lazy('audit', () => auditService(core, stores.audit)),
    compliance: lazy('compliance', () => complianceService(core, stores.compliance)),
    bankAccounts: lazy('bankAccounts', () => bankAccountService(core, stores.bankAccounts)),
    transfers: lazy('transfers', () => transferService(core, stores.transfers ? { store: stores.transfers } : {})),
    cards: lazy('cards', () => cardService(core, stores.cards ? { store: stores.cards } : {})),
    webhooks: lazy('webhooks', () => webhookService(core, stores.webhooks)),
    events: lazy('events', () => eventService(core, stores.events)),
  };
  const services = Object.defineProperties({} as Services, descriptors);
  return { config: core.config, clock: core.clock, core, services };
}

let shared: Container | undefined;

/** The process-wide container, over the process-wide core (the one the handlers use). */
export function container(): Container {
  shared ??= containerOf(sharedCore());
  return shared;
}
