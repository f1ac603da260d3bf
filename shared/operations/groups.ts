/**
 * The function groups: one Lambda each, serving the operations of one catalog module. `docs`
 * serves the OpenAPI document and the catch-all route (unknown paths answer our envelope).
 */
export const FUNCTION_GROUPS = ['internal', 'api-keys', 'wallets', 'activation', 'payments', 'policies', 'approvals', 'agents', 'audit-logs', 'events', 'webhooks', 'bank-accounts', 'transfers', 'cards', 'docs'] as const;
export type FunctionGroup = (typeof FUNCTION_GROUPS)[number];

/**
 * Function timeouts, read by CDK and by the local server alike. A batch of up to 100 payments
 * runs its items one after the other, so the payments group gets nearly API Gateway's 30 s
 * integration limit; everything else fails fast in our own code, with our envelope.
 */
export const DEFAULT_TIMEOUT_S = 10;
export const GROUP_TIMEOUT_S: Partial<Record<FunctionGroup, number>> = { payments: 28 };
export const timeoutOf = (group: string): number => GROUP_TIMEOUT_S[group as FunctionGroup] ?? DEFAULT_TIMEOUT_S;
