import type { Environment, Permission } from '../domain/tenancy.js';
import type { AnyUserRole } from '../domain/users/types.js';

/** The signed-in person a page serves (the edge resolved it from the session cookie). */
export interface DashboardSession {
  userId: string;
  email: string;
  role: AnyUserRole;
  /** null for the operator's people. */
  organizationId: string | null;
  /** The environment the session acts in (Sandbox or Live, switched at DASHBOARD_PATHS.environment). */
  environment: Environment;
  /** The role's permissions (shared/domain/users/roles.ts): what the pages show and allow. */
  permissions: readonly Permission[];
  /** Every form of the page carries it as the hidden field `_csrf` (<CsrfField/>); the edge checks it on every POST. */
  csrfToken: string;
}

/** What a catalog call takes, as the HTTP edge would have parsed it from a request. */
export interface CallInput {
  params?: Record<string, string>;
  query?: Record<string, string | undefined>;
  body?: Record<string, unknown>;
  idempotencyKey?: string;
}

/** One request to a dashboard page, signed in (the sign-in pages are the edge's own). */
export interface DashboardRequest {
  method: string;
  /** The full path, `/dashboard/...` (compare with DASHBOARD_PATHS). */
  path: string;
  query: Record<string, string | undefined>;
  /** The form's fields (POST only; the edge parsed, bounded and CSRF-checked them; `_csrf` removed). */
  form(): Map<string, string>;
  /** Request headers the pages may use, lower-cased names (`if-none-match`, `accept`). */
  header(name: string): string | undefined;
  session: DashboardSession;
  /**
   * Runs a catalog operation by its name (`listApprovals`, `approveApproval`, ...) as this user:
   * the operation's own schemas validate the input, `invoke` checks the role's permissions, the
   * audit entry is the user's (actor USER). Resolves with what the HTTP edge would answer as its
   * body; rejects with the operation's ApiError (a stored refusal of an idempotent operation too).
   */
  call<T = unknown>(operation: string, input?: CallInput): Promise<T>;
  /** Whether the second factor was proven in this session within the step-up window (5 minutes). */
  recentlyVerified(): boolean;
}

/**
 * A page's answer before the edge adds its headers: a document, a redirect after a POST (303), or
 * another body (the inbox's poll answer, a CSV download) with its content type.
 */
export type DashboardAnswer =
  | { status: number; html: string }
  | { status: 303; location: string }
  | { status: number; body: string; contentType: string; headers?: Record<string, string> };

/** One route: a path pattern (its groups are the path parameters) and what serves it. */
export interface DashboardRoute {
  pattern: RegExp;
  serve(request: DashboardRequest, params: string[]): Promise<DashboardAnswer>;
}
