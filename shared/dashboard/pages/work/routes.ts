import type { DashboardRoute } from '../../context.js';

/** The work pages' routes (see shared/dashboard/route-table.ts). */
export const WORK_ROUTES: readonly DashboardRoute[] = [];
