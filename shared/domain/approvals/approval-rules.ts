import type { Environment } from '../tenancy.js';

/** Pending approvals expire after 72 hours; in the sandbox the duration is divided by TIME_SCALE. */
export const APPROVAL_TTL_MS = 72 * 3600 * 1000;

export function approvalExpiryMs(environment: Environment, timeScale: number): number {
  return environment === 'SANDBOX' ? Math.max(1000, Math.floor(APPROVAL_TTL_MS / timeScale)) : APPROVAL_TTL_MS;
}
