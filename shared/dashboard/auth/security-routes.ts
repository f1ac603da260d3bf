import { verifiedWithin } from '../../domain/sign-in/sessions.js';
import type { StoredSession } from '../../domain/sign-in/types.js';
import { newTotpSecret } from '../../sign-in/totp.js';
import { pageSessionOf } from '../page-session.js';
import { clearSessionCookie } from '../cookies.js';
import { safeNext } from '../forms.js';
import { DASHBOARD_PATHS } from '../paths.js';
import { parseJson } from './json.js';
import { newCodesPage, securityPage, verifyPage } from './security-page.js';
import type { AuthRequest, AuthRoute, EdgeAnswer } from './types.js';

const exact = (path: string) => new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`);
const json = (status: number, body: unknown): EdgeAnswer => ({
  status,
  body: JSON.stringify(body),
  contentType: 'application/json; charset=utf-8',
});
const back = (done?: string): EdgeAnswer => ({
  status: 303,
  location: done ? `${DASHBOARD_PATHS.security}?done=${done}` : DASHBOARD_PATHS.security,
});

async function showSecurity(
  request: AuthRequest,
  extra: { error?: string; status?: number } = {},
): Promise<EdgeAnswer> {
  const current = request.session!;
  const { runtime } = request;
  const [credentials, sessions] = await Promise.all([
    runtime.enrolment.credentialsOf(current.userId),
    runtime.sessions.list(current.userId),
  ]);
  return securityPage({
    session: pageSessionOf(current),
    current,
    sessions,
    hasTotp: credentials?.totpSecretSealed !== undefined,
    passkeys: credentials?.passkeys ?? [],
    recoveryCodesLeft: credentials?.recoveryCodeHashes.length ?? 0,
    newSecret: newTotpSecret(),
    verified: verifiedWithin(current, runtime.clock.now()),
    ...(request.query.done ? { notice: request.query.done } : {}),
    ...extra,
  });
}

/** A change of factors needs the second factor proven in the last 5 minutes (step-up). */
function stepUp(
  path: string,
  change: (request: AuthRequest, session: StoredSession) => Promise<EdgeAnswer>,
): AuthRoute {
  return {
    pattern: exact(path),
    signedIn: true,
    async serve(request) {
      const session = request.session!;
      if (request.method !== 'POST') return back();
      if (!verifiedWithin(session, request.runtime.clock.now()))
        return { status: 303, location: DASHBOARD_PATHS.verify(DASHBOARD_PATHS.security) };
      return change(request, session);
    },
  };
}

const field = (request: AuthRequest, name: string) => request.form().get(name) ?? '';

/** The security page (factors, recovery codes, sessions) and the step-up page. */
export const SECURITY_ROUTES: readonly AuthRoute[] = [
  {
    pattern: exact(DASHBOARD_PATHS.security),
    signedIn: true,
    serve: (request) => (request.method === 'GET' ? showSecurity(request) : Promise.resolve(back())),
  },
  stepUp(DASHBOARD_PATHS.securityTotp, async (request, session) => {
    const result = await request.runtime.enrolment.setTotp(
      session,
      field(request, 'totpSecret'),
      field(request, 'code'),
      request.meta,
    );
    return result.ok ? back('totp') : showSecurity(request, { error: result.message, status: 400 });
  }),
  stepUp(DASHBOARD_PATHS.securityTotpRemove, async (request, session) =>
    (await request.runtime.enrolment.removeTotp(session, request.meta))
      ? back('totp-removed')
      : showSecurity(request, { error: 'Keep at least one of an authenticator app or a passkey.', status: 409 }),
  ),
  {
    pattern: exact(DASHBOARD_PATHS.securityPasskeyOptions),
    signedIn: true,
    async serve(request) {
      const session = request.session!;
      if (request.method !== 'POST') return back();
      if (!verifiedWithin(session, request.runtime.clock.now()))
        return json(403, { verify: DASHBOARD_PATHS.verify(DASHBOARD_PATHS.security) });
      const credentials = await request.runtime.enrolment.credentialsOf(session.userId);
      const options = await request.runtime.enrolment.passkeyOptions(
        request.runtime.relyingParty(request.header('host')),
        { id: session.userId, email: session.email },
        credentials?.passkeys ?? [],
      );
      return json(200, options);
    },
  },
  stepUp(DASHBOARD_PATHS.securityPasskeys, async (request, session) =>
    (await request.runtime.enrolment.addPasskey(
      request.runtime.relyingParty(request.header('host')),
      session,
      parseJson(field(request, 'credential')),
      request.meta,
    ))
      ? back('passkey')
      : showSecurity(request, { error: 'The passkey could not be added. Try again.', status: 400 }),
  ),
  stepUp(DASHBOARD_PATHS.securityPasskeyRemove, async (request, session) =>
    (await request.runtime.enrolment.removePasskey(session, field(request, 'passkeyId'), request.meta))
      ? back('passkey-removed')
      : showSecurity(request, { error: 'Keep at least one of an authenticator app or a passkey.', status: 409 }),
  ),
  stepUp(DASHBOARD_PATHS.securityRecoveryCodes, async (request, session) =>
    newCodesPage(
      pageSessionOf(session),
      await request.runtime.enrolment.regenerateRecoveryCodes(session, request.meta),
    ),
  ),
  {
    pattern: exact(DASHBOARD_PATHS.securitySessionRevoke),
    signedIn: true,
    async serve(request) {
      if (request.method !== 'POST') return back();
      await request.runtime.sessions.revoke(request.session!, field(request, 'sessionId'), request.meta);
      return back('revoked');
    },
  },
  {
    pattern: exact(DASHBOARD_PATHS.signOutEverywhere),
    signedIn: true,
    async serve(request) {
      if (request.method !== 'POST') return back();
      await request.runtime.sessions.signOutEverywhere(request.session!, request.meta);
      return {
        status: 303,
        location: `${DASHBOARD_PATHS.signIn}?signedOut=1`,
        cookies: [clearSessionCookie(request.runtime.cookies)],
      };
    },
  },
  {
    pattern: exact(DASHBOARD_PATHS.verifyPasskeyOptions),
    signedIn: true,
    async serve(request) {
      if (request.method !== 'POST') return back();
      const session = request.session!;
      const credentials = await request.runtime.enrolment.credentialsOf(session.userId);
      const options = await request.runtime.signIn.passkeyOptions(
        request.runtime.relyingParty(request.header('host')),
        {
          id: session.userId,
          passkeys: credentials?.passkeys ?? [],
        },
      );
      return json(200, options);
    },
  },
  {
    pattern: /^\/dashboard\/verify$/,
    signedIn: true,
    async serve(request) {
      const session = request.session!;
      const next = safeNext(request.method === 'POST' ? request.form().get('next') : request.query.next);
      const credentials = await request.runtime.enrolment.credentialsOf(session.userId);
      const hasPasskeys = (credentials?.passkeys.length ?? 0) > 0;
      if (request.method !== 'POST') return verifyPage(pageSessionOf(session), next, hasPasskeys);
      const credential = request.form().get('credential');
      const outcome = await request.runtime.signIn.stepUp(
        request.runtime.relyingParty(request.header('host')),
        session,
        credential ? { passkey: parseJson(credential) } : { code: field(request, 'code') },
        request.meta,
      );
      if (outcome === 'ok') return { status: 303, location: next };
      return verifyPage(
        pageSessionOf(session),
        next,
        hasPasskeys,
        outcome === 'limited'
          ? 'Too many attempts. Wait 15 minutes and try again.'
          : 'That did not confirm it is you. Try again.',
      );
    },
  },
];
