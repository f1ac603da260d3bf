import type { Operation, OperationGroup } from './define.js';
import { AGENTS } from './agents.js';
import { APPROVALS } from './approvals.js';
import { AUDIT_LOGS } from './audit-logs.js';
import { BANK_ACCOUNTS } from './bank-accounts.js';
import { CARDS } from './cards.js';
import { CUSTOMERS } from './customers.js';
import { DISPUTES } from './disputes.js';
import { EVENTS } from './events.js';
import { INVOICES } from './invoices.js';
import { PAYMENT_LINKS } from './payment-links.js';
import { PAYMENTS } from './payments.js';
import { POLICIES } from './policies.js';
import { TRANSFERS } from './transfers.js';
import { WALLETS } from './wallets.js';
import { WEBHOOKS } from './webhooks.js';

/**
 * The function groups that offer MCP tools (an operation declaring `mcp`), in catalog order: the
 * one list a new group with tools joins (a group without tools joins `GROUPS` in ./index.ts, which
 * holds these and the others). The MCP function builds its tools from this list and so bundles no
 * group that offers none (internal, api-keys, activation, docs: their operations, services and
 * rules); test/unit/catalog.test.ts checks that a group is here exactly when it offers a tool.
 */
export const TOOL_GROUPS = [
  WALLETS,
  PAYMENTS,
  POLICIES,
  APPROVALS,
  AGENTS,
  AUDIT_LOGS,
  EVENTS,
  WEBHOOKS,
  BANK_ACCOUNTS,
  CUSTOMERS,
  INVOICES,
  PAYMENT_LINKS,
  DISPUTES,
  TRANSFERS,
  CARDS,
] as const;

export type ToolGroup = (typeof TOOL_GROUPS)[number]['group'];

/** The services a group's operations run on. */
export type ServicesOf<Group> = Group extends OperationGroup<infer Services> ? Services : never;
export type Intersection<Union> = (Union extends unknown ? (value: Union) => void : never) extends (
  value: infer All,
) => void
  ? All
  : never;

/** The services the tool groups' operations run on, together: what the MCP edge must hold. */
export type ToolServices = Intersection<ServicesOf<(typeof TOOL_GROUPS)[number]>>;

/** Every operation of the tool groups (those without `mcp` too: a tool may run one as its variant). */
export const TOOL_GROUP_OPERATIONS: readonly Operation[] = TOOL_GROUPS.flatMap(
  (g) => g.operations as readonly Operation[],
);
