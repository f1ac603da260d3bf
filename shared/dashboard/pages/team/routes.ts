import type { DashboardRoute } from '../../context.js';

/** The team pages' routes (see shared/dashboard/route-table.ts). */
export const TEAM_ROUTES: readonly DashboardRoute[] = [];
