import { HTTP_BASE_GRANTS, inGrantOrder, type Grant } from '../grants.js';
import { HOSTED_FUNCTION } from '../hosted/function.js';
import type { Operation, OperationGroup } from './define.js';
import { ACTIVATION } from './activation.js';
import { API_KEYS } from './api-keys.js';
import { DOCS } from './docs.js';
import { INTERNAL } from './internal.js';
import { USERS } from './users.js';
import { TOOL_GROUPS, type Intersection, type ServicesOf } from './tool-groups.js';

/**
 * The function groups, one entry per group module: the one list a new group joins, through
 * TOOL_GROUPS (./tool-groups.ts) when it offers MCP tools. The group names (`FunctionGroup`,
 * FUNCTION_GROUPS: one Lambda each, `functions/<group>/handler.ts`), the routes, MCP tools, OpenAPI
 * document, the functions' grants and timeouts all derive from it. `docs` serves the OpenAPI
 * document and the catch-all route (unknown paths answer our envelope). Function handlers import
 * their own group module only, never this one (it carries every area); the MCP function imports
 * TOOL_GROUPS only.
 */
const GROUPS = [INTERNAL, API_KEYS, ACTIVATION, USERS, ...TOOL_GROUPS, DOCS] as const;

export type FunctionGroup = (typeof GROUPS)[number]['group'];

/**
 * The operation catalog: one line per group. HTTP routes (CDK and the local server), MCP tools
 * and the OpenAPI document are generated from it.
 */
export const CATALOG: readonly OperationGroup<never, FunctionGroup>[] = GROUPS as unknown as readonly OperationGroup<
  never,
  FunctionGroup
>[];

export const FUNCTION_GROUPS: readonly FunctionGroup[] = CATALOG.map((g) => g.group);

/**
 * Function timeouts, read by CDK and by the local server alike: a group's `timeoutS`, else this.
 * Everything fails fast in our own code, with our envelope, under API Gateway's 30 s limit.
 */
export const DEFAULT_TIMEOUT_S = 10;
const TIMEOUTS = new Map<string, number>(
  CATALOG.flatMap((g) => (g.timeoutS === undefined ? [] : [[g.group, g.timeoutS] as const])),
);
export const timeoutOf = (group: string): number => TIMEOUTS.get(group) ?? DEFAULT_TIMEOUT_S;

/**
 * The services the operations of every area run on, together (every group but docs, which
 * documents the API): what the container of shared/runtime/container.ts (tests, the local run)
 * must hold; the MCP edge holds the tool groups' (`ToolServices`, ./tool-groups.ts). Derived from
 * the catalog: a new group's services join it.
 */
export type AreaServices = Intersection<ServicesOf<Exclude<(typeof GROUPS)[number], typeof DOCS>>>;

export interface CatalogEntry {
  group: FunctionGroup;
  operation: Operation;
}

export const CATALOG_ENTRIES: readonly CatalogEntry[] = CATALOG.flatMap((g) =>
  g.operations.map((operation) => ({ group: g.group, operation: operation as Operation })),
);

/** What a group's function may reach: the base every HTTP function has, and the group's own grants (shared/grants.ts). */
export const grantsOf = (group: FunctionGroup): readonly Grant[] =>
  inGrantOrder([...HTTP_BASE_GRANTS, ...(CATALOG.find((g) => g.group === group)?.grants ?? [])]);

/**
 * The MCP function's grants: it serves the tools of every group that offers some, so it gets the
 * union of those groups' grants (a new group's grants reach it with its tools).
 */
export const MCP_GRANTS: readonly Grant[] = inGrantOrder(
  CATALOG.filter((g) => g.operations.some((op) => op.mcp !== undefined)).flatMap((g) => grantsOf(g.group)),
);

/**
 * The hosted pages' grants: the union of the groups whose public operations the pages call
 * (HOSTED_FUNCTION.groups), so a grant those operations need reaches the pages with them.
 */
export const HOSTED_GRANTS: readonly Grant[] = inGrantOrder([
  ...HTTP_BASE_GRANTS,
  ...CATALOG.filter((g) => (HOSTED_FUNCTION.groups as readonly string[]).includes(g.group)).flatMap((g) =>
    grantsOf(g.group),
  ),
]);

/**
 * The dashboard's grants: its pages call any group's operations as the signed-in user, so it gets
 * the union of every group's grants (the base, the groups' own: table scan for the operator's
 * compliance page, the data key that also seals TOTP secrets, ...).
 */
export const DASHBOARD_GRANTS: readonly Grant[] = inGrantOrder([
  ...HTTP_BASE_GRANTS,
  ...CATALOG.flatMap((g) => grantsOf(g.group)),
  // TOTP secrets are sealed with the data key (shared/domain/sign-in): needed even if no group had it.
  'dataKey:seal',
]);
