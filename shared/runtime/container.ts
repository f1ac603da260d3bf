import { loadConfig, type Config } from '../config/config.js';
import type { Clock } from '../domain/clock.js';
import { core as sharedCore, createCore, type Core, type TableContext } from './core.js';
import { activationService } from './services/activation.js';
import { agentService } from './services/agents.js';
import { apiKeyService } from './services/api-keys.js';
import { approvalService } from './services/approvals.js';
import { auditService } from './services/audit.js';
import { bankAccountService } from './services/bank-accounts.js';
import { cardService } from './services/cards.js';
import { complianceService } from './services/compliance.js';
import { customerService } from './services/customers.js';
import { disputeService } from './services/disputes.js';
import { invoiceService } from './services/invoices.js';
import { invoiceCollectionService } from './services/invoice-collection.js';
import { eventService } from './services/events.js';
import { merchantService } from './services/merchants.js';
import { invoiceWalletPaymentService } from './services/invoice-wallet-payments.js';
import { organizationService } from './services/organizations.js';
import { paymentLinkService } from './services/payment-links.js';
import { paymentService } from './services/payments.js';
import { policyService } from './services/policies.js';
import { transferService } from './services/transfers.js';
import { walletService } from './services/wallets.js';
import { webhookService } from './services/webhooks.js';
import type { AreaServices } from '../operations/index.js';

/**
 * Every area's service and its builder: the one list a new area joins. Each area's builder is
 * its own file, shared/runtime/services/<area>.ts (`(core, overrides = {}) => service`, over its
 * own area's store unless `overrides.store` names another, plus what else a test may replace; no
 * module-level code); what several areas share is built in shared/runtime (expiries.ts,
 * sealing.ts, webhook-cipher.ts, event-bus.ts, workflows.ts). `Services`, `StoreOverrides` and
 * the container's lazy services are derived from this list. Only this module imports every
 * builder: a function imports its own area's file, so it bundles only that area.
 */
const AREAS = {
  organizations: organizationService,
  apiKeys: apiKeyService,
  wallets: walletService,
  activation: activationService,
  payments: paymentService,
  policies: policyService,
  approvals: approvalService,
  merchants: merchantService,
  agents: agentService,
  audit: auditService,
  compliance: complianceService,
  bankAccounts: bankAccountService,
  transfers: transferService,
  cards: cardService,
  customers: customerService,
  invoices: invoiceService,
  invoiceCollection: invoiceCollectionService,
  webhooks: webhookService,
  events: eventService,
  invoiceWalletPayments: invoiceWalletPaymentService,
  paymentLinks: paymentLinkService,
  disputes: disputeService,
} satisfies Record<string, AreaBuilder>;

/** The one signature of an area's builder: the core, and what a test replaces (at least its store). */
type AreaBuilder<Store = never, Service = unknown> = (core: Core, overrides?: { store?: Store }) => Service;
type Areas = typeof AREAS;
type StoreOf<Builder> = Builder extends (core: Core, overrides?: infer Overrides) => unknown
  ? Exclude<NonNullable<Overrides> extends { store?: infer Store } ? Store : never, undefined>
  : never;

/** Every service, for tests, the local run and edges that serve every area (MCP). */
export type Services = { [Area in keyof Areas]: ReturnType<Areas[Area]> };

/** Stores to use instead of the table's (tests: fault injection). */
export type StoreOverrides = { [Area in keyof Areas]?: StoreOf<Areas[Area]> };

/**
 * The container holds every service an operation of the catalog needs (the MCP server runs them
 * all from it): a group whose services are missing here fails to compile. (Until 2026-11-23 the
 * webhook and event tools of MCP found no service and answered 500.)
 */
const holdsEveryArea: Services extends AreaServices ? true : never = true;
void holdsEveryArea;

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

export function createContainer(
  config: Config = loadConfig(),
  overrides: { clock?: Clock; table?: TableContext; stores?: StoreOverrides } = {},
): Container {
  return containerOf(createCore(config, overrides), overrides.stores);
}

function containerOf(core: Core, stores: StoreOverrides = {}): Container {
  const built: Partial<Record<keyof Services, unknown>> = {};
  const services = {} as Services;
  for (const area of Object.keys(AREAS) as (keyof Areas)[]) {
    const build = AREAS[area] as AreaBuilder<unknown>;
    const store = stores[area];
    Object.defineProperty(services, area, {
      get: () => (built[area] ??= build(core, store === undefined ? {} : { store })),
      enumerable: true,
    });
  }
  return { config: core.config, clock: core.clock, core, services };
}

let shared: Container | undefined;

/** The process-wide container, over the process-wide core (the one the handlers use). */
export function container(): Container {
  shared ??= containerOf(sharedCore());
  return shared;
}
