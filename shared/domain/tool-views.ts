import * as z from 'zod/mini';
import * as agents from './agents/agent-view.js';
import * as apiKeys from './api-keys/api-key-view.js';
import * as approvals from './approvals/approval-view.js';
import * as audit from './audit/audit-view.js';
import * as bankAccounts from './bank-accounts/bank-account-view.js';
import * as cards from './cards/card-view.js';
import * as customers from './customers/customer-view.js';
import * as disputes from './disputes/dispute-view.js';
import * as events from './events/event-view.js';
import * as invoiceCollection from './invoices/invoice-collection-view.js';
import * as invoices from './invoices/invoice-view.js';
import * as merchants from './merchants/merchant-view.js';
import * as paymentLinks from './payment-links/payment-link-view.js';
import * as payments from './payments/payment-view.js';
import * as policies from './policies/policy-view.js';
import * as transfers from './transfers/transfer-view.js';
import * as common from './views.js';
import * as wallets from './wallets/wallet-view.js';
import * as webhooks from './webhooks/webhook-view.js';

/**
 * The view modules of the areas whose operations the MCP tools run (the tool groups'), the list a
 * new view module joins when its area offers tools, else `VIEW_MODULES` (./view-registry.ts),
 * which holds these and the others. The MCP tools resolve their output views here, so the MCP
 * bundle carries no view of a group without tools; test/unit/mcp-tools.test.ts builds every
 * tool's output schema through it.
 */
export const TOOL_VIEW_MODULES = {
  agents,
  apiKeys,
  approvals,
  audit,
  bankAccounts,
  cards,
  customers,
  disputes,
  events,
  invoices,
  invoiceCollection,
  merchants,
  paymentLinks,
  payments,
  policies,
  transfers,
  common,
  wallets,
  webhooks,
};

/** A lookup of views by the name their module exports them under (the map built on first use). */
export function viewLookup(modules: Readonly<Record<string, object>>): (name: string) => z.ZodMiniType {
  let views: ReadonlyMap<string, z.ZodMiniType> | undefined;
  return (name) => {
    views ??= new Map(
      Object.values(modules).flatMap((module) =>
        Object.entries(module).filter((entry): entry is [string, z.ZodMiniType] => entry[1] instanceof z.ZodMiniType),
      ),
    );
    const schema = views.get(name);
    if (!schema) throw new Error(`no view ${name}`);
    return schema;
  };
}

/** The schema of a tool group's view, by name (an operation's `output`). */
export const toolViewOf = viewLookup(TOOL_VIEW_MODULES);
