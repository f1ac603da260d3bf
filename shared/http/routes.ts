import type { AuditAction } from '../domain/audit/actions.js';
import { ApiError } from '../domain/errors.js';
import type { Permission } from '../domain/tenancy.js';
import type { Access, HttpMethod } from '../operations/define.js';
import {
  CATALOG_ENTRIES,
  DASHBOARD_GRANTS,
  FUNCTION_GROUPS,
  grantsOf,
  HOSTED_GRANTS,
  MCP_GRANTS,
  timeoutOf,
  type FunctionGroup,
} from '../operations/index.js';
import { fillPath, noRoute, routeKeyOf } from '../operations/paths.js';

/**
 * The route table, generated from the operation catalog. CDK creates an HTTP API route per entry
 * (wired to the function of its group); the local server serves the same entries through the same
 * handlers. Paths use API Gateway's `{param}` syntax so the route key is identical everywhere.
 * Function handlers do not import this module (it carries the whole catalog): each serves its own
 * group's operations. CDK reads the groups' timeouts and grants (shared/grants.ts) from here too.
 */
export {
  DASHBOARD_GRANTS,
  FUNCTION_GROUPS,
  grantsOf,
  HOSTED_GRANTS,
  MCP_GRANTS,
  timeoutOf,
  type FunctionGroup,
  type HttpMethod,
};
export type RouteAccess = Access;

export interface RouteDefinition {
  method: HttpMethod;
  path: string;
  group: FunctionGroup;
  operation: string;
  access: RouteAccess;
  permission?: Permission;
  /** Whether the route changes state (audit coverage walks these). */
  mutating: boolean;
  /** The audit action a successful call writes (exactly one entry), for every mutating route. */
  audit?: AuditAction;
  /** Sandbox-only endpoints answer SANDBOX_ONLY to live keys before the body is validated. */
  sandboxOnly?: boolean;
}

export const ROUTES: readonly RouteDefinition[] = CATALOG_ENTRIES.map(({ group, operation: op }) => ({
  method: op.http.method,
  path: op.http.path,
  group,
  operation: op.name,
  access: op.access,
  ...(op.permission ? { permission: op.permission } : {}),
  mutating: op.http.method !== 'GET',
  ...(op.audit ? { audit: op.audit } : {}),
  ...(op.sandboxOnly ? { sandboxOnly: true } : {}),
}));

/** The catch-all route: unknown paths and methods answer the error envelope with security headers. */
export const FALLBACK_ROUTE = { routeKey: '$default', group: 'docs' as FunctionGroup, operation: 'fallback' } as const;

export { routeKeyOf };

const BY_KEY = new Map(ROUTES.map((r) => [routeKeyOf(r), r]));

export function findRouteByKey(routeKey: string): RouteDefinition | undefined {
  return BY_KEY.get(routeKey);
}

export function routesOfGroup(group: FunctionGroup): RouteDefinition[] {
  return ROUTES.filter((r) => r.group === group);
}

const compiled = ROUTES.map((r) => {
  const names: string[] = [];
  const pattern = fillPath(r.path, (name) => {
    names.push(name);
    return '([^/]+)';
  });
  return { route: r, regex: new RegExp(`^${pattern}$`), names };
});

function safeDecode(value: string): string | undefined {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

export type RouteMatch =
  | { kind: 'matched'; route: RouteDefinition; pathParameters: Record<string, string> }
  | { kind: 'method-not-allowed'; allowed: HttpMethod[] }
  | { kind: 'not-found' };

/** Path matching as API Gateway does it (used by the local server and the fallback handler). */
export function matchRoute(method: string, path: string): RouteMatch {
  const candidates = compiled.filter((c) => c.regex.test(path));
  const hit = candidates.find((c) => c.route.method === method);
  if (hit) {
    const values = hit.regex.exec(path)?.slice(1) ?? [];
    const decoded = values.map(safeDecode);
    if (decoded.some((value) => value === undefined)) return { kind: 'not-found' };
    const pathParameters = Object.fromEntries(hit.names.map((name, i) => [name, decoded[i] ?? '']));
    return { kind: 'matched', route: hit.route, pathParameters };
  }
  if (candidates.length > 0) return { kind: 'method-not-allowed', allowed: candidates.map((c) => c.route.method) };
  return { kind: 'not-found' };
}

/** The answer to a request no route matches: 405 with the allowed methods, else 404. */
export function answerUnknownRoute(method: string, path: string): never {
  const match = matchRoute(method, path);
  if (match.kind === 'method-not-allowed') {
    throw new ApiError('METHOD_NOT_ALLOWED', `${method} is not allowed on ${path}.`, { allowed: match.allowed });
  }
  throw noRoute(method, path);
}
