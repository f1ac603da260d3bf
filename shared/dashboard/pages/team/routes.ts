import type { DashboardRoute } from '../../context.js';
import { TEAM_PAGE_ROUTES } from './team.js';

/** The team pages' routes (see shared/dashboard/route-table.ts): the team, the operator pages. docs/api.md "Dashboard: team". */
export const TEAM_ROUTES: readonly DashboardRoute[] = [...TEAM_PAGE_ROUTES];
