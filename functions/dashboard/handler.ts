import { createDashboardHandler } from '../../shared/dashboard/edge.js';
import { CATALOG_ENTRIES } from '../../shared/operations/index.js';
import { container } from '../../shared/runtime/container.js';
import { core } from '../../shared/runtime/core.js';
import { dashboardRuntime } from '../../shared/runtime/services/sign-in.js';

/**
 * The dashboard (`ANY /dashboard`, `ANY /dashboard/{proxy+}`): pages for an organization's people
 * over every group's operations (a page calls any of them as the signed-in user), and the
 * sign-in pages. It serves every area by design, so it builds every area's service (the
 * container's, each on first use) and bundles the whole catalog (bench/bundles.ts: its own target).
 */
let runtime: ReturnType<typeof dashboardRuntime> | undefined;

export const handler = createDashboardHandler(
  () => (runtime ??= dashboardRuntime(core())),
  () => ({
    operations: CATALOG_ENTRIES.map((entry) => entry.operation),
    services: () => container().services,
    cursors: () => core().cursors(),
  }),
);
