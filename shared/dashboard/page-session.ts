import type { StoredSession } from '../domain/sign-in/types.js';
import { rolePermissions } from '../domain/users/roles.js';
import type { DashboardSession } from './context.js';

/** The session as the pages see it: the role's permissions, the CSRF token of its forms. */
export const pageSessionOf = (session: StoredSession): DashboardSession => ({
  userId: session.userId,
  email: session.email,
  role: session.role,
  organizationId: session.organizationId,
  environment: session.environment,
  permissions: rolePermissions(session.role),
  csrfToken: session.csrfToken,
});
