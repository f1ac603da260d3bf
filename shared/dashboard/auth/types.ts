import type { Clock } from '../../domain/clock.js';
import type { ClientMeta } from '../../domain/sign-in/audit.js';
import type { SessionService } from '../../sign-in/session-service.js';
import type { StoredSession } from '../../domain/sign-in/types.js';
import type { RateLimiter } from '../../edge/rate-limit.js';
import type { CallInput, DashboardAnswer } from '../context.js';
import type { CookiePolicy } from '../cookies.js';
import type { SignInFlows } from '../../sign-in/sign-in-flows.js';
import type { Enrolment } from '../../sign-in/enrolment.js';
import type { RelyingParty } from '../../sign-in/webauthn.js';

/** What the dashboard's edge needs from the composition root (functions/dashboard/handler.ts). */
export interface DashboardRuntime {
  clock: Clock;
  /** Per client IP, every dashboard request (the hosted pages' limiter). */
  publicRateLimiter: RateLimiter;
  cookies: CookiePolicy;
  sessions: SessionService;
  signIn: SignInFlows;
  enrolment: Enrolment;
  /** The passkeys' relying party: from PUBLIC_BASE_URL, else the request's Host (webauthn.ts relyingPartyOf). */
  relyingParty(host: string | undefined): RelyingParty;
}

/** A page's answer, with the cookies it sets (sign-in, sign-out). */
export type EdgeAnswer = DashboardAnswer & { cookies?: string[] };

/** A request to one of the edge's own pages (sign-in, invitation, verify, security, environment). */
export interface AuthRequest {
  method: string;
  path: string;
  query: Record<string, string | undefined>;
  form(): Map<string, string>;
  header(name: string): string | undefined;
  meta: ClientMeta;
  runtime: DashboardRuntime;
  /** The signed-in session (always there for routes with `signedIn`). */
  session: StoredSession | undefined;
  /** The login-CSRF value of the pre-session cookie (set on the signed-out pages' GET). */
  preSession: string;
  /** Catalog calls as the user (signed-in routes only). */
  call<T = unknown>(operation: string, input?: CallInput): Promise<T>;
  /**
   * When the organization's Live environment opened (null: not yet), read as the organization
   * whatever the user's role (the environment switch's own check; no other call as the organization).
   */
  productionActivatedAt(): Promise<string | null>;
}

export interface AuthRoute {
  pattern: RegExp;
  /** Routes that need a session redirect to sign-in without one; the others are the signed-out pages. */
  signedIn: boolean;
  serve(request: AuthRequest, params: string[]): Promise<EdgeAnswer>;
}
