import type { Operation, OperationGroup } from './define.js';
import { ACTIVATION } from './activation.js';
import { AGENTS } from './agents.js';
import { API_KEYS } from './api-keys.js';
import { APPROVALS } from './approvals.js';
import { AUDIT_LOGS } from './audit-logs.js';
import { BANK_ACCOUNTS } from './bank-accounts.js';
import { DOCS } from './docs.js';
import { EVENTS } from './events.js';
import { INTERNAL } from './internal.js';
import { PAYMENTS } from './payments.js';
import { POLICIES } from './policies.js';
import { TRANSFERS } from './transfers.js';
import { CARDS } from './cards.js';
import { WALLETS } from './wallets.js';
import { WEBHOOKS } from './webhooks.js';
import type { FunctionGroup } from './groups.js';

const GROUPS = [INTERNAL, API_KEYS, WALLETS, ACTIVATION, PAYMENTS, POLICIES, APPROVALS, AGENTS, AUDIT_LOGS, EVENTS, WEBHOOKS, BANK_ACCOUNTS, TRANSFERS, CARDS, DOCS] as const;

/**
 * The operation catalog: one line per group. HTTP routes (CDK and the local server), MCP tools
 * and the OpenAPI document are generated from it.
 */
export const CATALOG: readonly OperationGroup<never>[] = GROUPS as unknown as readonly OperationGroup<never>[];

type ServicesOf<Group> = Group extends OperationGroup<infer Services> ? Services : never;
type Intersection<Union> = (Union extends unknown ? (value: Union) => void : never) extends (value: infer All) => void ? All : never;

/**
 * The services the operations of every area run on, together (every group but docs, which
 * documents the API): what an edge serving every area (the MCP server, through the container of
 * shared/runtime/container.ts) must hold. Derived from the catalog: a new group's services join it.
 */
export type AreaServices = Intersection<ServicesOf<Exclude<(typeof GROUPS)[number], typeof DOCS>>>;

export interface CatalogEntry {
  group: FunctionGroup;
  operation: Operation;
}

export const CATALOG_ENTRIES: readonly CatalogEntry[] = CATALOG.flatMap((g) => g.operations.map((operation) => ({ group: g.group, operation: operation as Operation })));
