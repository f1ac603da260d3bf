import type { ToolServices as ToolGroupServices } from '../operations/tool-groups.js';
import type { Core } from './core.js';
import { agentService } from './services/agents.js';
import { approvalService } from './services/approvals.js';
import { auditService } from './services/audit.js';
import { bankAccountService } from './services/bank-accounts.js';
import { cardToolService } from './services/card-tools.js';
import { customerService } from './services/customers.js';
import { disputeService } from './services/disputes.js';
import { eventService } from './services/events.js';
import { invoiceCollectionService } from './services/invoice-collection.js';
import { invoiceWalletPaymentService } from './services/invoice-wallet-payments.js';
import { invoiceService } from './services/invoices.js';
import { merchantService } from './services/merchants.js';
import { paymentLinkService } from './services/payment-links.js';
import { paymentService } from './services/payments.js';
import { policyService } from './services/policies.js';
import { transferClientService } from './services/transfers.js';
import { walletService } from './services/wallets.js';
import { webhookService } from './services/webhooks.js';

/** The one signature of an area's builder: the core, and what a test replaces (at least its store). */
export type AreaBuilder<Store = never, Service = unknown> = (core: Core, overrides?: { store?: Store }) => Service;

/**
 * The areas whose services the MCP tools run (the services of TOOL_GROUPS' operations): the list a
 * new area joins when its group offers tools, else `AREAS` in ./container.ts, which holds these
 * and the others. The MCP function builds these only, so it bundles no other area's service.
 */
export const TOOL_AREAS = {
  wallets: walletService,
  payments: paymentService,
  policies: policyService,
  approvals: approvalService,
  merchants: merchantService,
  agents: agentService,
  audit: auditService,
  bankAccounts: bankAccountService,
  transfers: transferClientService,
  // No tool plays the card network: the card service without the authorization engine (./services/card-tools.ts).
  cards: cardToolService,
  customers: customerService,
  invoices: invoiceService,
  invoiceCollection: invoiceCollectionService,
  webhooks: webhookService,
  events: eventService,
  invoiceWalletPayments: invoiceWalletPaymentService,
  paymentLinks: paymentLinkService,
  disputes: disputeService,
} satisfies Record<string, AreaBuilder>;

/** The tool areas' services (what the MCP tools run on). */
export type ToolAreaServices = { [Area in keyof typeof TOOL_AREAS]: ReturnType<(typeof TOOL_AREAS)[Area]> };

/** The tool areas hold every service a tool group's operation needs: a tool group whose services are missing fails to compile. */
const holdsEveryToolArea: ToolAreaServices extends ToolGroupServices ? true : never = true;
void holdsEveryToolArea;

/**
 * One object with a lazy getter per area: each service built on first use over the core, with the
 * area's store override when given (the container's and the MCP edge's services).
 */
export function lazyServices(
  core: Core,
  areas: Readonly<Record<string, AreaBuilder>>,
  stores: Readonly<Record<string, unknown>> = {},
): Record<string, unknown> {
  const built: Record<string, unknown> = {};
  const services: Record<string, unknown> = {};
  for (const [area, builder] of Object.entries(areas)) {
    const build = builder as AreaBuilder<unknown>;
    const store = stores[area];
    Object.defineProperty(services, area, {
      get: () => (built[area] ??= build(core, store === undefined ? {} : { store })),
      enumerable: true,
    });
  }
  return services;
}

/** The MCP edge's services over a core (each built on first use). */
export const toolServices = (core: Core): ToolAreaServices => lazyServices(core, TOOL_AREAS) as ToolAreaServices;
