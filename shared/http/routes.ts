import type { AuditAction } from '../domain/audit/actions.js';
import type { Permission } from '../domain/tenancy.js';

/**
 * The one route table. CDK creates an HTTP API route per entry (wired to the function of its
 * group); the local server serves the same entries through the same handlers. Paths use API
 * Gateway's `{param}` syntax so the route key is identical everywhere.
 */
export const FUNCTION_GROUPS = ['internal', 'api-keys', 'wallets', 'activation', 'payments', 'policies', 'approvals', 'agents', 'audit-logs'] as const;
export type FunctionGroup = (typeof FUNCTION_GROUPS)[number];

/**
 * Function timeouts, read by CDK and by the local server alike. A batch of up to 100 payments
 * runs its items one after the other, so the payments group gets nearly API Gateway's 30 s
 * integration limit; everything else fails fast in our own code, with our envelope.
 */
export const DEFAULT_TIMEOUT_S = 10;
export const GROUP_TIMEOUT_S: Partial<Record<FunctionGroup, number>> = { payments: 28 };
export const timeoutOf = (group: string): number => GROUP_TIMEOUT_S[group as FunctionGroup] ?? DEFAULT_TIMEOUT_S;

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call: `key` needs an organization or agent key holding `permission`; `organization`
 * additionally refuses wallet-scoped (agent) keys; `operator` needs a `svc_admin_` key;
 * `public` needs no key (rate limited per client IP).
 */
export type RouteAccess = 'key' | 'organization' | 'operator' | 'public';

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

const route = (
  method: HttpMethod,
  path: string,
  group: FunctionGroup,
  operation: string,
  access: RouteAccess,
  permission?: Permission,
  audit?: AuditAction,
): RouteDefinition => ({ method, path, group, operation, access, ...(permission ? { permission } : {}), mutating: method !== 'GET', ...(audit ? { audit } : {}) });

export const ROUTES: readonly RouteDefinition[] = [
  route('POST', '/v1/internal/organizations', 'internal', 'createOrganization', 'operator', 'service:admin', 'organization.create'),
  route('POST', '/v1/internal/organizations/{id}/kyb', 'internal', 'decideKyb', 'operator', 'service:admin', 'organization.kyb.decide'),
  route('GET', '/v1/internal/compliance', 'internal', 'getCompliance', 'operator', 'service:admin'),
  route('POST', '/v1/internal/merchants/{domain}/suspend', 'internal', 'suspendMerchant', 'operator', 'service:admin', 'merchant.suspend'),

  route('POST', '/v1/api-keys', 'api-keys', 'createApiKey', 'organization', 'admin', 'api-key.create'),
  route('GET', '/v1/api-keys', 'api-keys', 'listApiKeys', 'organization', 'admin'),
  route('DELETE', '/v1/api-keys/{id}', 'api-keys', 'revokeApiKey', 'organization', 'admin', 'api-key.revoke'),

  route('POST', '/v1/wallets', 'wallets', 'createWallet', 'organization', 'wallets:write', 'wallet.create'),
  route('GET', '/v1/wallets', 'wallets', 'listWallets', 'key', 'wallets:read'),
  route('GET', '/v1/wallets/{id}', 'wallets', 'getWallet', 'key', 'wallets:read'),
  route('GET', '/v1/wallets/{id}/balance', 'wallets', 'getBalance', 'key', 'wallets:read'),
  { ...route('POST', '/v1/wallets/{id}/fund', 'wallets', 'fundWallet', 'key', 'wallets:write', 'wallet.fund'), sandboxOnly: true },
  route('GET', '/v1/wallets/{id}/transactions', 'wallets', 'getStatement', 'key', 'wallets:read'),

  route('POST', '/v1/payments', 'payments', 'createPayment', 'key', 'payments:write', 'payment.created'),
  route('GET', '/v1/payments', 'payments', 'listPayments', 'key', 'payments:read'),
  route('POST', '/v1/payments/batch', 'payments', 'createBatch', 'key', 'payments:write', 'payment.created'),
  route('GET', '/v1/payments/{id}', 'payments', 'getPayment', 'key', 'payments:read'),
  route('POST', '/v1/payments/{id}/reverse', 'payments', 'reversePayment', 'key', 'payments:write', 'payment.reversed'),
  route('PUT', '/v1/merchant-profile', 'payments', 'putMerchantProfile', 'organization', 'wallets:write', 'merchant.upsert'),

  route('POST', '/v1/agents', 'agents', 'createAgent', 'organization', 'wallets:write', 'wallet.create'),
  route('POST', '/v1/agents/from-template', 'agents', 'createAgentFromTemplate', 'organization', 'wallets:write', 'wallet.create'),
  route('GET', '/v1/agents/templates', 'agents', 'listTemplates', 'key', 'wallets:read'),
  route('GET', '/v1/agents', 'agents', 'listAgents', 'key', 'wallets:read'),
  route('GET', '/v1/agents/{id}', 'agents', 'getAgent', 'key', 'wallets:read'),
  route('POST', '/v1/agents/{id}/adjust-budget', 'agents', 'adjustBudget', 'organization', 'wallets:write', 'wallet.budget.adjust'),
  route('POST', '/v1/agents/{id}/pause', 'agents', 'pauseAgent', 'organization', 'wallets:write', 'wallet.freeze'),
  route('POST', '/v1/agents/{id}/resume', 'agents', 'resumeAgent', 'organization', 'wallets:write', 'wallet.unfreeze'),
  route('POST', '/v1/agents/{id}/rotate-key', 'agents', 'rotateAgentKey', 'organization', 'wallets:write', 'api-key.rotate'),
  route('DELETE', '/v1/agents/{id}', 'agents', 'deleteAgent', 'organization', 'wallets:write', 'wallet.close'),

  route('POST', '/v1/policies', 'policies', 'createPolicy', 'organization', 'wallets:write', 'policy.create'),
  route('GET', '/v1/policies', 'policies', 'listPolicies', 'key', 'wallets:read'),
  route('GET', '/v1/policies/{id}', 'policies', 'getPolicy', 'key', 'wallets:read'),
  route('PATCH', '/v1/policies/{id}', 'policies', 'updatePolicy', 'organization', 'wallets:write', 'policy.update'),
  route('DELETE', '/v1/policies/{id}', 'policies', 'deletePolicy', 'organization', 'wallets:write', 'policy.delete'),

  route('GET', '/v1/audit-logs', 'audit-logs', 'listAuditLogs', 'key', 'wallets:read'),

  route('GET', '/v1/approvals', 'approvals', 'listApprovals', 'key', 'payments:read'),
  route('GET', '/v1/approvals/{id}', 'approvals', 'getApproval', 'key', 'payments:read'),
  route('POST', '/v1/approvals/{id}/approve', 'approvals', 'approveApproval', 'organization', 'admin', 'approval.approved'),
  route('POST', '/v1/approvals/{id}/reject', 'approvals', 'rejectApproval', 'organization', 'admin', 'approval.rejected'),

  route('GET', '/v1/activation/status', 'activation', 'getStatus', 'organization', 'admin'),
  route('POST', '/v1/activation/accept-tos', 'activation', 'acceptTos', 'organization', 'admin', 'organization.tos.accept'),
  route('POST', '/v1/activation/kyb', 'activation', 'submitKyb', 'organization', 'admin', 'organization.kyb.submit'),
  route('POST', '/v1/activation/billing-method', 'activation', 'addBillingMethod', 'organization', 'admin', 'organization.billing-method.add'),
  route('POST', '/v1/activation/activate-production', 'activation', 'activateProduction', 'organization', 'admin', 'organization.production.activate'),
];

/** The catch-all route: unknown paths and methods answer the error envelope with security headers. */
export const FALLBACK_ROUTE = { routeKey: '$default', group: 'internal' as FunctionGroup, operation: 'fallback' } as const;

export const routeKeyOf = (route: Pick<RouteDefinition, 'method' | 'path'>) => `${route.method} ${route.path}`;

const BY_KEY = new Map(ROUTES.map((r) => [routeKeyOf(r), r]));

export function findRouteByKey(routeKey: string): RouteDefinition | undefined {
  return BY_KEY.get(routeKey);
}

export function routesOfGroup(group: FunctionGroup): RouteDefinition[] {
  return ROUTES.filter((r) => r.group === group);
}

const compiled = ROUTES.map((r) => {
  const names: string[] = [];
  const pattern = r.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
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
