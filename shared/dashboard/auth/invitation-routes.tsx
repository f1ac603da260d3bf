import type { AnyUserRole } from '../../domain/users/types.js';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../../domain/sign-in/password-rules.js';
import { newTotpSecret, validTotpSecret } from '../../sign-in/totp.js';
import { sessionCookie } from '../cookies.js';
import { CSRF_FIELD } from '../layout.js';
import { DASHBOARD_PATHS } from '../paths.js';
import { Alert, signedOutPage } from './frame.js';
import { RecoveryCodes, TotpEnrolment } from './factor-parts.js';
import { parseJson } from './json.js';
import type { AuthRequest, AuthRoute, EdgeAnswer } from './types.js';

interface InvitationView {
  token: string;
  email: string;
  role: AnyUserRole;
  csrf: string;
  secret: string;
  error?: { field: string; message: string };
}

function invitationPage(view: InvitationView, status = 200): EdgeAnswer {
  const error = view.error;
  const on = (field: string) => (error?.field === field ? error.message : undefined);
  return signedOutPage(
    status,
    'Accept your invitation',
    <>
      {error ? <Alert>{error.message}</Alert> : null}
      <p>
        You are invited as <strong>{view.role}</strong> with the email <strong>{view.email}</strong>. Choose a password,
        then set up a second factor: an authenticator app or a passkey.
      </p>
      <form method="post" action={DASHBOARD_PATHS.invitation(view.token)} class="card" data-busy-label="Setting up…">
        <input type="hidden" name={CSRF_FIELD} value={view.csrf} />
        <input type="hidden" name="credential" value="" />
        <input type="text" name="username" value={view.email} autocomplete="email" hidden readonly />
        <fieldset>
          <legend>Password</legend>
          <div class="field">
            <label for="password">
              New password
              <span class="hint">
                At least {MIN_PASSWORD_LENGTH} characters; not your email; not a common password. A few words work well.
              </span>
            </label>
            <input
              id="password"
              name="password"
              type="password"
              autocomplete="new-password"
              required
              minlength={MIN_PASSWORD_LENGTH}
              maxlength={MAX_PASSWORD_LENGTH}
              aria-invalid={on('password') ? 'true' : undefined}
            />
          </div>
          <div class="field">
            <label for="confirm">Password again</label>
            <input
              id="confirm"
              name="confirm"
              type="password"
              autocomplete="new-password"
              required
              maxlength={MAX_PASSWORD_LENGTH}
              aria-invalid={on('confirm') ? 'true' : undefined}
            />
          </div>
        </fieldset>
        <fieldset>
          <legend>Authenticator app</legend>
          <TotpEnrolment secret={view.secret} email={view.email} error={on('code')} />
          <div class="actions">
            <button type="submit" name="factor" value="totp">
              Set up with this app
            </button>
          </div>
        </fieldset>
        <fieldset>
          <legend>Or a passkey</legend>
          <p class="hint" data-passkey-status role="status"></p>
          <div class="actions">
            <button
              type="submit"
              name="factor"
              value="passkey"
              class="secondary"
              data-passkey="register"
              data-options={DASHBOARD_PATHS.invitationPasskeyOptions(view.token)}
            >
              Set up with a passkey
            </button>
          </div>
          <noscript>
            <p>Setting up a passkey needs JavaScript; the authenticator app works without it.</p>
          </noscript>
        </fieldset>
      </form>
    </>,
  );
}

const invalid = () =>
  signedOutPage(
    404,
    'Invitation not valid',
    <>
      <Alert>This invitation link is not valid: it was used already, replaced by a newer one, or it expired.</Alert>
      <p>Ask whoever invited you for a new link, or sign in if you already accepted.</p>
      <p>
        <a href={DASHBOARD_PATHS.signIn}>Sign in</a>
      </p>
    </>,
  );

async function serveInvitation(request: AuthRequest, token: string): Promise<EdgeAnswer> {
  const { enrolment } = request.runtime;
  const user = await enrolment.invited(token);
  if (!user) return invalid();
  const base = { token, email: user.email, role: user.role, csrf: request.preSession };
  if (request.method !== 'POST') return invitationPage({ ...base, secret: newTotpSecret() });
  const form = request.form();
  const field = (name: string) => form.get(name) ?? '';
  // The posted secret is drawn again (QR code) only when valid: a forged one is replaced by a fresh one.
  const posted = field('totpSecret').trim().toUpperCase();
  const secret = validTotpSecret(posted) ? posted : newTotpSecret();
  const factor = field('factor') === 'passkey' ? 'passkey' : 'totp';
  const result = await enrolment.accept(
    request.runtime.relyingParty(request.header('host')),
    token,
    {
      password: field('password'),
      confirm: field('confirm'),
      ...(factor === 'totp'
        ? { factor, totpSecret: posted, code: field('code') }
        : { factor, credential: parseJson(field('credential')) }),
    },
    request.meta,
  );
  if (!result.ok) {
    if (result.field === 'invitation') return invalid();
    return invitationPage({ ...base, secret, error: { field: result.field, message: result.message } }, 400);
  }
  const answer = signedOutPage(
    200,
    'You are all set',
    <>
      <RecoveryCodes codes={result.recoveryCodes} />
      <p>
        {/* An organization's people start at the approvals inbox (the quick start's promise); the operator's at their pages. */}
        <a class="button" href={user.organizationId === null ? DASHBOARD_PATHS.overview : DASHBOARD_PATHS.approvals}>
          Continue to the dashboard
        </a>
      </p>
    </>,
  );
  return { ...answer, cookies: [sessionCookie(request.runtime.cookies, result.secret)] };
}

/** Accepting an invitation (password, then a TOTP app or a passkey, then the recovery codes once). */
export const INVITATION_ROUTES: readonly AuthRoute[] = [
  {
    pattern: /^\/dashboard\/invitations\/([^/]+)\/passkey-options$/,
    signedIn: false,
    async serve(request, [token]) {
      if (request.method !== 'POST') return { status: 303, location: DASHBOARD_PATHS.invitation(token ?? '') };
      const options = await request.runtime.enrolment.invitationPasskeyOptions(
        request.runtime.relyingParty(request.header('host')),
        token ?? '',
      );
      return options
        ? { status: 200, body: JSON.stringify(options), contentType: 'application/json; charset=utf-8' }
        : { status: 404, body: '{"error":"invitation"}', contentType: 'application/json; charset=utf-8' };
    },
  },
  {
    pattern: /^\/dashboard\/invitations\/([^/]+)$/,
    signedIn: false,
    serve: (request, [token]) => serveInvitation(request, token ?? ''),
  },
];
