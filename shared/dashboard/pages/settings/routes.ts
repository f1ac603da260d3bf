import type { DashboardRoute } from '../../context.js';

/** The settings pages' routes (see shared/dashboard/route-table.ts). */
export const SETTINGS_ROUTES: readonly DashboardRoute[] = [];
