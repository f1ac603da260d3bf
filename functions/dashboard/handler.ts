import { createDashboardHandler } from '../../shared/dashboard/edge.js';
import type { UserReader } from '../../shared/domain/users/ports.js';
import { CATALOG_ENTRIES } from '../../shared/operations/index.js';
import { container } from '../../shared/runtime/container.js';
import { core } from '../../shared/runtime/core.js';
import { dashboardRuntime } from '../../shared/runtime/services/sign-in.js';

/**
 * Until the users area's store joins (shared/persistence/user-store.ts): no user to sign in. The
 * sessions work without it (signInAs in test/fixtures/dashboard-session.ts opens them directly).
 */
const NO_USERS_YET: UserReader = {
  getUser: async () => undefined,
  getUserByInvitationHash: async () => undefined,
  listUsers: async () => [],
  findActiveUsersByEmail: async () => [],
};

/**
 * The dashboard (`ANY /dashboard`, `ANY /dashboard/{proxy+}`): pages for an organization's people
 * over every group's operations (a page calls any of them as the signed-in user), and the
 * sign-in pages. It serves every area by design, so it builds every area's service (the
 * container's, each on first use) and bundles the whole catalog (bench/bundles.ts: its own target).
 */
let runtime: ReturnType<typeof dashboardRuntime> | undefined;

export const handler = createDashboardHandler(
  () => (runtime ??= dashboardRuntime(core(), NO_USERS_YET)),
  () => ({
    operations: CATALOG_ENTRIES.map((entry) => entry.operation),
    services: () => container().services,
    cursors: () => core().cursors(),
  }),
);
