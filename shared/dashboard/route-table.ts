import type { DashboardRoute } from './context.js';
import { SETTINGS_ROUTES } from './pages/settings/routes.js';
import { TEAM_ROUTES } from './pages/team/routes.js';
import { WORK_ROUTES } from './pages/work/routes.js';

/**
 * The signed-in pages, by area: work (overview, approvals, agents, wallets), settings (activation,
 * API keys, webhooks, audit log), team (members and the operator's pages). The sign-in, invitation,
 * verify and security pages are the edge's own (shared/dashboard/edge.ts). The first pattern that
 * matches the path serves it.
 */
export const DASHBOARD_ROUTES: readonly DashboardRoute[] = [...WORK_ROUTES, ...SETTINGS_ROUTES, ...TEAM_ROUTES];
