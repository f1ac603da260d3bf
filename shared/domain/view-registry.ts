import * as z from 'zod/mini';
import * as activation from './activation/activation-view.js';
import * as agents from './agents/agent-view.js';
import * as apiKeys from './api-keys/api-key-view.js';
import * as approvals from './approvals/approval-view.js';
import * as audit from './audit/audit-view.js';
import * as bankAccounts from './bank-accounts/bank-account-view.js';
import * as cards from './cards/card-view.js';
import * as compliance from './compliance/compliance-view.js';
import * as customers from './customers/customer-view.js';
import * as disputes from './disputes/dispute-view.js';
import * as events from './events/event-view.js';
import * as invoiceCollection from './invoices/invoice-collection-view.js';
import * as invoices from './invoices/invoice-view.js';
import * as merchants from './merchants/merchant-view.js';
import * as organizations from './organizations/organization-view.js';
import * as paymentLinks from './payment-links/payment-link-view.js';
import * as payments from './payments/payment-view.js';
import * as policies from './policies/policy-view.js';
import * as transfers from './transfers/transfer-view.js';
import * as common from './views.js';
import * as wallets from './wallets/wallet-view.js';
import * as webhooks from './webhooks/webhook-view.js';

/**
 * Every response view by the name its module exports it under. The catalog names an operation's
 * output (`output: 'cardView'`, checked by the compiler against this registry); OpenAPI, the MCP
 * tools and the tests resolve the name here. Function bundles never import this module: a view
 * costs a function's bundle only where it presents it, and then only its presenter (views are
 * lazy and `@__PURE__`, docs/architecture.md). A new area's view module adds one line here.
 */
export const VIEW_MODULES = {
  activation,
  agents,
  apiKeys,
  approvals,
  audit,
  bankAccounts,
  cards,
  compliance,
  customers,
  disputes,
  events,
  invoices,
  invoiceCollection,
  merchants,
  organizations,
  paymentLinks,
  payments,
  policies,
  transfers,
  common,
  wallets,
  webhooks,
};

type Modules = typeof VIEW_MODULES;
type Exports = { [M in keyof Modules]: Modules[M] }[keyof Modules];
type SchemaNamesOf<T> = T extends unknown ? { [K in keyof T]: T[K] extends z.ZodMiniType ? K : never }[keyof T] : never;

/** The name of a view: an exported schema of a view module. */
export type ViewName = Extract<SchemaNamesOf<Exports>, string>;

let views: ReadonlyMap<string, z.ZodMiniType> | undefined;

/** The schema of a view, by name. */
export function viewOf(name: ViewName): z.ZodMiniType {
  views ??= new Map(
    Object.values(VIEW_MODULES).flatMap((module) =>
      Object.entries(module).filter((entry): entry is [string, z.ZodMiniType] => entry[1] instanceof z.ZodMiniType),
    ),
  );
  const schema = views.get(name);
  if (!schema) throw new Error(`no view ${name}`);
  return schema;
}
