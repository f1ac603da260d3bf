import type { DashboardRoute } from '../../context.js';
import { OPERATOR_ROUTES } from './operator.js';
import { TEAM_PAGE_ROUTES } from './team.js';

/**
 * The team pages' routes (see shared/dashboard/route-table.ts): the team of an organization, and the
 * operator's pages (compliance, KYB decisions, disputes). docs/api.md "Dashboard: team and operator pages".
 */
export const TEAM_ROUTES: readonly DashboardRoute[] = [...TEAM_PAGE_ROUTES, ...OPERATOR_ROUTES];
