import type { DashboardRoute } from '../../context.js';
import { ACTIVATION_ROUTES } from './activation.js';
import { API_KEY_ROUTES } from './api-keys.js';
import { AUDIT_ROUTES } from './audit.js';
import { WEBHOOK_ROUTES } from './webhooks.js';

/**
 * The settings pages' routes (see shared/dashboard/route-table.ts): activation, API keys, webhooks
 * with their delivery log, the audit log and its CSV. docs/api.md "Dashboard: settings".
 */
export const SETTINGS_ROUTES: readonly DashboardRoute[] = [
  ...ACTIVATION_ROUTES,
  ...API_KEY_ROUTES,
  ...WEBHOOK_ROUTES,
  ...AUDIT_ROUTES,
];
