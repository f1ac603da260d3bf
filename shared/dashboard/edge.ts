import middy, { type MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { ApiError } from '../domain/errors.js';
import type { ClientMeta } from '../domain/sign-in/audit.js';
import { boundedUserAgent } from '../domain/sign-in/audit.js';
import { verifiedWithin } from '../domain/sign-in/sessions.js';
import { sameSecret } from '../sign-in/tokens.js';
import { newPreSession } from '../sign-in/sign-in-flows.js';
import type { StoredSession } from '../domain/sign-in/types.js';
import type { Principal, RequestContext } from '../domain/tenancy.js';
import { rolePermissions } from '../domain/users/roles.js';
import { assetResponse, PAGE_HEADERS } from '../hosted/headers.js';
import { isCrossSite } from '../hosted/same-origin.js';
import { compressed } from '../http/compression.js';
import { bodyTextOf } from '../http/request-body.js';
import type { HttpResponse } from '../http/responses.js';
import { dashboardAssetAt } from './assets.js';
import { AUTH_ROUTES } from './auth/routes.js';
import { refusalPage, type DashboardRefusal } from './auth/frame.js';
import type { AuthRequest, DashboardRuntime, EdgeAnswer } from './auth/types.js';
import { catalogCaller, type DashboardCatalog } from './catalog-call.js';
import type { DashboardRequest } from './context.js';
import { cookieValue, preSessionCookie, preSessionCookieName, sessionCookieName } from './cookies.js';
import { dashboardFormFields, MAX_DASHBOARD_FORM_BYTES } from './forms.js';
import { errorPage } from './error-page.js';
import { DASHBOARD_PATHS } from './paths.js';
import { pageSessionOf } from './page-session.js';
import { DASHBOARD_ROUTES } from './route-table.js';
import { CSRF_FIELD } from './layout.js';
import { observedEdge } from '../observability/invocation.js';
import { log } from '../observability/log.js';
import { noteScope } from '../observability/scope.js';

export type { DashboardRuntime } from './auth/types.js';
export type { DashboardCatalog } from './catalog-call.js';
export { pageSessionOf } from './page-session.js';

type Request = middy.Request<APIGatewayProxyEventV2, HttpResponse, Error, Context>;
type Event = APIGatewayProxyEventV2;

const requestIdOf = (event: Event) => event.requestContext?.requestId ?? 'unknown';
const sourceIpOf = (event: Event) => event.requestContext?.http?.sourceIp ?? 'unknown';

function headerOf(event: Event, name: string): string | undefined {
  const headers = event.headers ?? {};
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  return key ? headers[key] : undefined;
}

/** API Gateway's payload 2.0 moves cookies to `cookies`; a plain Cookie header is read too. */
const cookieHeaderOf = (event: Event) => (event.cookies ? event.cookies.join('; ') : headerOf(event, 'cookie'));

/** The principal a user's calls carry (contract: keyId is the user id, so "never the requester" holds). */
export function principalOfSession(session: StoredSession): Principal {
  if (session.organizationId === null)
    return {
      kind: 'OPERATOR',
      keyId: session.userId,
      organizationId: null,
      environment: null,
      permissions: ['service:admin'],
      walletId: null,
    };
  return {
    kind: 'ORGANIZATION',
    keyId: session.userId,
    organizationId: session.organizationId,
    environment: session.environment,
    permissions: [...rolePermissions(session.role)],
    walletId: null,
    userRole: session.role,
  };
}

function toResponse(answer: EdgeAnswer, requestId: string, extra: Record<string, string> = {}): HttpResponse {
  const headers: Record<string, string> = { ...PAGE_HEADERS, 'X-Request-Id': requestId, ...extra };
  const cookies = answer.cookies && answer.cookies.length > 0 ? { cookies: answer.cookies } : {};
  if ('location' in answer)
    return { statusCode: 303, headers: { ...headers, Location: answer.location }, body: '', ...cookies };
  if ('html' in answer) return { statusCode: answer.status, headers, body: answer.html, ...cookies };
  return {
    statusCode: answer.status,
    headers: { ...headers, 'Content-Type': answer.contentType, ...answer.headers },
    body: answer.body,
    ...cookies,
  };
}

const refused = (kind: DashboardRefusal, requestId: string, extra: Record<string, string> = {}) =>
  toResponse(refusalPage(kind), requestId, extra);

// Last in effect: a failure becomes a page (never a stack trace).
const failurePage: MiddlewareObj<Event, HttpResponse, Error, Context> = {
  onError: (request: Request) => {
    const requestId = requestIdOf(request.event);
    const error = request.error;
    if (error instanceof ApiError && error.status < 500) {
      const retry = error.details?.retryAfter;
      request.response = refused(
        error.code === 'RATE_LIMIT_EXCEEDED' ? 'rate-limited' : 'bad-request',
        requestId,
        retry === undefined ? {} : { 'Retry-After': String(retry) },
      );
      return;
    }
    log.error('unexpected error', error);
    request.response = refused('failure', requestId);
  },
};

const compression: MiddlewareObj<Event, HttpResponse, Error, Context> = {
  after: (request: Request) => compress(request),
  onError: (request: Request) => compress(request),
};
function compress(request: Request) {
  if (request.response) request.response = compressed(request.response, headerOf(request.event, 'accept-encoding'));
}

function bodyBytesOf(event: Event): number {
  if (event.body === undefined || event.body === null) return 0;
  return Buffer.byteLength(event.body, event.isBase64Encoded ? 'base64' : 'utf8');
}

function matchRoute<R extends { pattern: RegExp }>(routes: readonly R[], path: string) {
  for (const route of routes) {
    const match = route.pattern.exec(path);
    if (match) {
      const params = match.slice(1).map((value) => {
        try {
          return decodeURIComponent(value ?? '');
        } catch {
          return '';
        }
      });
      return { route, params };
    }
  }
  return undefined;
}

/**
 * The dashboard's function (`ANY /dashboard`, `ANY /dashboard/{proxy+}`): assets; the per-IP limit;
 * on a POST the same-origin check and the size bound; the session from its cookie; the edge's own
 * pages (sign-in, invitation, verify, security, environment, sign-out: ./auth/routes.ts), else the
 * signed-in pages (DASHBOARD_ROUTES), which need a session (without one: 303 to sign-in with
 * `next`) and, on a POST, the session's CSRF token (`_csrf` field or `X-CSRF-Token` header).
 * Pages call catalog operations as the user (`call`: ./catalog-call.ts). docs/api.md "Dashboard:
 * signing in and sessions".
 */
export function createDashboardHandler(getRuntime: () => DashboardRuntime, getCatalog: () => DashboardCatalog) {
  let catalog: DashboardCatalog | undefined;
  const handler = middy<Event, HttpResponse, Error, Context>()
    .use(compression)
    .use(failurePage)
    .handler(async (event) => {
      const requestId = requestIdOf(event);
      const method = (event.requestContext?.http?.method ?? 'GET').toUpperCase();
      const path = event.rawPath ?? event.requestContext?.http?.path ?? '/dashboard';
      const asset = method === 'GET' ? dashboardAssetAt(path) : undefined;
      if (asset) return assetResponse(asset, requestId);
      const runtime = getRuntime();
      const decision = runtime.publicRateLimiter(`ip:${sourceIpOf(event)}`);
      if (!decision.allowed) return refused('rate-limited', requestId, { 'Retry-After': String(decision.retryAfterS) });
      if (method !== 'GET' && method !== 'POST') return refused('not-found', requestId);
      if (method === 'POST') {
        if (isCrossSite(headerOf(event, 'origin'), headerOf(event, 'sec-fetch-site'), headerOf(event, 'host')))
          return refused('cross-site', requestId);
        if (bodyBytesOf(event) > MAX_DASHBOARD_FORM_BYTES)
          throw new ApiError('PAYLOAD_TOO_LARGE', 'The form is too large.');
      }
      const cookies = cookieHeaderOf(event);
      const secret = cookieValue(cookies, sessionCookieName(runtime.cookies));
      const session = secret === undefined ? undefined : await runtime.sessions.resolve(secret);
      if (session) noteScope({ principalKind: 'USER', organizationId: session.organizationId });
      const meta: ClientMeta = {
        ipAddress: sourceIpOf(event),
        userAgent: boundedUserAgent(headerOf(event, 'user-agent')),
      };
      let fields: Map<string, string> | undefined;
      const form = () => (fields ??= dashboardFormFields(headerOf(event, 'content-type'), bodyTextOf(event)));
      const query = event.queryStringParameters ?? {};
      const header = (name: string) => headerOf(event, name.toLowerCase());
      catalog ??= getCatalog();
      const context = (principal: Principal): RequestContext => ({
        principal,
        actor: { actorType: 'USER', actorId: session?.userId ?? 'anonymous', ipAddress: meta.ipAddress },
        requestId,
      });
      const callAs = (principal: () => Principal) => {
        return <T>(name: string, input?: Parameters<DashboardRequest['call']>[1]) => {
          if (!session || !catalog) throw new ApiError('UNAUTHORIZED', 'Sign in first.');
          return catalogCaller(catalog, context(principal()))<T>(name, input);
        };
      };
      const call = callAs(() => principalOfSession(session!));

      const own = matchRoute(AUTH_ROUTES, path);
      if (own) {
        const existing = cookieValue(cookies, preSessionCookieName(runtime.cookies));
        if (own.route.signedIn && !session) return toResponse(toSignIn(method, path, event.rawQueryString), requestId);
        if (method === 'POST') {
          const token = own.route.signedIn ? session?.csrfToken : existing;
          if (!csrfMatches(token, form, header)) return refused('csrf', requestId);
        }
        const preSession = existing ?? newPreSession();
        const request: AuthRequest = {
          method,
          path,
          query,
          form: () => withoutCsrf(form()),
          header,
          meta,
          runtime,
          session,
          preSession,
          call,
          // One read only (getStatus, which needs 'admin'): whether Live is open, for any role's switch.
          productionActivatedAt: async () =>
            (
              await callAs(() => ({ ...principalOfSession(session!), permissions: ['admin'] }))<{
                productionActivatedAt: string | null;
              }>('getStatus')
            ).productionActivatedAt,
        };
        const answer = await own.route.serve(request, own.params);
        const setPre =
          existing === undefined && !own.route.signedIn ? [preSessionCookie(runtime.cookies, preSession)] : [];
        return toResponse({ ...answer, cookies: [...setPre, ...(answer.cookies ?? [])] }, requestId);
      }

      // Without a session every other path goes to sign-in (which pages exist is for the signed-in).
      if (!session) return toResponse(toSignIn(method, path, event.rawQueryString), requestId);
      const page = matchRoute(DASHBOARD_ROUTES, path);
      if (!page)
        return toResponse(
          errorPage(pageSessionOf(session), 404, 'Page not found', 'There is no such page in the dashboard.'),
          requestId,
        );
      if (method === 'POST' && !csrfMatches(session.csrfToken, form, header)) return refused('csrf', requestId);
      const pageSession = pageSessionOf(session);
      const request: DashboardRequest = {
        method,
        path,
        query,
        form: () => withoutCsrf(form()),
        header,
        session: pageSession,
        call,
        recentlyVerified: () => verifiedWithin(session, runtime.clock.now()),
      };
      try {
        return toResponse(await page.route.serve(request, page.params), requestId);
      } catch (error) {
        if (error instanceof ApiError && error.status < 500)
          return toResponse(errorPage(pageSession, error.status, 'Request refused', error.message), requestId);
        throw error;
      }
    });
  return observedEdge<Event, HttpResponse>((event, context) => handler(event, context));
}

/** Not signed in: to the sign-in page, coming back here after (a POST comes back to the page's GET). */
function toSignIn(method: string, path: string, rawQuery: string | undefined): EdgeAnswer {
  const here = method === 'GET' && rawQuery ? `${path}?${rawQuery}` : path;
  return { status: 303, location: `${DASHBOARD_PATHS.signIn}?next=${encodeURIComponent(here)}` };
}

function csrfMatches(
  expected: string | undefined,
  form: () => Map<string, string>,
  header: (name: string) => string | undefined,
): boolean {
  if (!expected) return false;
  const sent = header('x-csrf-token') ?? form().get(CSRF_FIELD);
  return sent !== undefined && sameSecret(sent, expected);
}

function withoutCsrf(fields: Map<string, string>): Map<string, string> {
  const copy = new Map(fields);
  copy.delete(CSRF_FIELD);
  return copy;
}
