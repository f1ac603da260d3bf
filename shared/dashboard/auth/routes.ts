import { ENVIRONMENTS, type Environment } from '../../domain/tenancy.js';
import { clearSessionCookie, sessionCookie } from '../cookies.js';
import { safeNext } from '../forms.js';
import { DASHBOARD_PATHS } from '../paths.js';
import type { SignInResult } from '../../sign-in/sign-in-flows.js';
import { refusalPage } from './frame.js';
import { recoveryPage, signInPage, type SignInView } from './sign-in-pages.js';
import type { AuthRequest, AuthRoute, EdgeAnswer } from './types.js';
import { INVITATION_ROUTES } from './invitation-routes.js';
import { parseJson } from './json.js';
import { SECURITY_ROUTES } from './security-routes.js';

const GENERIC_FAILURE = 'The email, password or code is not right. Check them and try again.';
const LIMITED = 'Too many attempts. Wait 15 minutes and try again.';

const exact = (path: string) => new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`);

const field = (request: AuthRequest, name: string) => request.form().get(name) ?? '';

/** A good sign-in: the session's cookie and on to `next`; a refusal: the form again, generic. */
function afterSignIn(
  request: AuthRequest,
  result: SignInResult,
  again: (view: SignInView) => EdgeAnswer,
  next: string,
): EdgeAnswer {
  if (result.ok) {
    const notice =
      result.recoveryCodesLeft !== undefined && result.recoveryCodesLeft <= 3
        ? `${next.includes('?') ? '&' : '?'}recovery=${result.recoveryCodesLeft}`
        : '';
    return {
      status: 303,
      location: `${next}${notice}`,
      cookies: [sessionCookie(request.runtime.cookies, result.secret)],
    };
  }
  const view = { csrf: request.preSession, next, email: field(request, 'email') };
  return result.reason === 'limited'
    ? { ...again({ ...view, error: LIMITED, status: 429 }) }
    : again({ ...view, error: GENERIC_FAILURE, status: 401 });
}

function signInRoute(
  path: string,
  page: (view: SignInView) => EdgeAnswer,
  run: (request: AuthRequest) => Promise<SignInResult>,
): AuthRoute {
  return {
    pattern: exact(path),
    signedIn: false,
    async serve(request) {
      const next = safeNext(request.method === 'POST' ? request.form().get('next') : request.query.next);
      if (request.method === 'GET') {
        if (request.session) return { status: 303, location: next };
        const notice =
          request.query.signedOut === '1'
            ? 'You are signed out.'
            : request.query.ended === '1'
              ? 'Your session ended. Sign in again.'
              : undefined;
        return page({ csrf: request.preSession, next, ...(notice ? { notice } : {}) });
      }
      return afterSignIn(request, await run(request), page, next);
    },
  };
}

/** The edge's own pages (the signed-in pages are DASHBOARD_ROUTES). */
export const AUTH_ROUTES: readonly AuthRoute[] = [
  signInRoute(DASHBOARD_PATHS.signIn, signInPage, (request) =>
    request.runtime.signIn.withCode(
      { email: field(request, 'email'), password: field(request, 'password'), code: field(request, 'code') },
      request.meta,
    ),
  ),
  signInRoute(DASHBOARD_PATHS.signInRecovery, recoveryPage, (request) =>
    request.runtime.signIn.withRecoveryCode(
      {
        email: field(request, 'email'),
        password: field(request, 'password'),
        recoveryCode: field(request, 'recoveryCode'),
      },
      request.meta,
    ),
  ),
  {
    pattern: exact(`${DASHBOARD_PATHS.signInPasskey}/options`),
    signedIn: false,
    async serve(request) {
      if (request.method !== 'POST') return refusalPage('not-found');
      const options = await request.runtime.signIn.passkeyOptions(request.runtime.relyingParty(request.header('host')));
      return { status: 200, body: JSON.stringify(options), contentType: 'application/json; charset=utf-8' };
    },
  },
  {
    pattern: exact(DASHBOARD_PATHS.signInPasskey),
    signedIn: false,
    async serve(request) {
      const next = safeNext(request.form().get('next'));
      if (request.method !== 'POST') return { status: 303, location: DASHBOARD_PATHS.signIn };
      const result = await request.runtime.signIn.withPasskey(
        request.runtime.relyingParty(request.header('host')),
        parseJson(field(request, 'credential')),
        request.meta,
      );
      if (result.ok) return afterSignIn(request, result, signInPage, next);
      return signInPage({
        csrf: request.preSession,
        next,
        error:
          result.reason === 'limited'
            ? LIMITED
            : 'That passkey could not sign you in. Try again, or use your password and a code.',
        status: result.reason === 'limited' ? 429 : 401,
      });
    },
  },
  {
    pattern: exact(DASHBOARD_PATHS.signOut),
    signedIn: true,
    async serve(request) {
      if (request.method !== 'POST') return { status: 303, location: DASHBOARD_PATHS.security };
      await request.runtime.sessions.signOut(request.session!, request.meta);
      return {
        status: 303,
        location: `${DASHBOARD_PATHS.signIn}?signedOut=1`,
        cookies: [clearSessionCookie(request.runtime.cookies)],
      };
    },
  },
  {
    pattern: exact(DASHBOARD_PATHS.environment),
    signedIn: true,
    async serve(request) {
      const session = request.session!;
      const next = safeNext(request.form().get('next') ?? request.query.next);
      if (request.method !== 'POST' || session.organizationId === null) return { status: 303, location: next };
      const wanted = request.form().get('environment');
      if (!(ENVIRONMENTS as readonly string[]).includes(wanted ?? '')) return { status: 303, location: next };
      const environment = wanted as Environment;
      if (environment === 'PRODUCTION') {
        if ((await request.productionActivatedAt()) === null)
          return { status: 303, location: `${DASHBOARD_PATHS.activation}?live=closed` };
      }
      await request.runtime.sessions.switchEnvironment(session, environment);
      return { status: 303, location: next };
    },
  },
  ...INVITATION_ROUTES,
  ...SECURITY_ROUTES,
];
