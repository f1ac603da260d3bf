import type { Passkey, StoredSession } from '../../domain/sign-in/types.js';
import type { DashboardSession } from '../context.js';
import { CsrfField, DashboardLayout, dashboardPage } from '../layout.js';
import { DASHBOARD_PATHS } from '../paths.js';
import { TotpEnrolment } from './factor-parts.js';
import type { EdgeAnswer } from './types.js';

const NOTICES: Record<string, string> = {
  totp: 'Your authenticator app is set up.',
  'totp-removed': 'The authenticator app is removed.',
  passkey: 'The passkey is added.',
  'passkey-removed': 'The passkey is removed.',
  revoked: 'That session is signed out.',
};

/** Factor changes ask for the second factor first (step-up). */
function Confirm() {
  return (
    <p>
      <a href={DASHBOARD_PATHS.verify(DASHBOARD_PATHS.security)}>Confirm it is you</a> to change your sign-in factors or
      make new recovery codes.
    </p>
  );
}

const when = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

export interface SecurityView {
  session: DashboardSession;
  current: StoredSession;
  sessions: StoredSession[];
  hasTotp: boolean;
  passkeys: Passkey[];
  recoveryCodesLeft: number;
  newSecret: string;
  /** The second factor proven in the last 5 minutes: the factor changes are open. */
  verified: boolean;
  notice?: string;
  error?: string;
  status?: number;
}

/** The security page: factors, recovery codes, sessions (each can be signed out), sign out everywhere. */
export function securityPage(view: SecurityView): EdgeAnswer {
  const { session } = view;
  const notice = view.notice ? NOTICES[view.notice] : undefined;
  const lastFactor = (view.hasTotp ? 1 : 0) + view.passkeys.length <= 1;
  return dashboardPage(
    view.status ?? 200,
    <DashboardLayout session={session} title="Security" current={DASHBOARD_PATHS.security}>
      {view.error ? (
        <div class="alert" role="alert">
          {view.error}
        </div>
      ) : null}
      {notice ? (
        <div class="notice" role="status">
          {notice}
        </div>
      ) : null}
      <section class="card" aria-labelledby="app">
        <h2 id="app">Authenticator app</h2>
        <p>{view.hasTotp ? 'An authenticator app gives you sign-in codes.' : 'No authenticator app is set up.'}</p>
        {!view.verified ? <Confirm /> : null}
        {view.verified && view.hasTotp && !lastFactor ? (
          <form method="post" action={DASHBOARD_PATHS.securityTotpRemove}>
            <CsrfField session={session} />
            <button type="submit" class="secondary">
              Remove the authenticator app
            </button>
          </form>
        ) : null}
        {view.verified ? (
          <details>
            <summary>{view.hasTotp ? 'Move to another authenticator app' : 'Set up an authenticator app'}</summary>
            <form method="post" action={DASHBOARD_PATHS.securityTotp}>
              <CsrfField session={session} />
              <TotpEnrolment secret={view.newSecret} email={session.email} />
              <button type="submit">Use this app</button>
            </form>
          </details>
        ) : null}
      </section>
      <section class="card" aria-labelledby="passkeys">
        <h2 id="passkeys">Passkeys</h2>
        {view.passkeys.length === 0 ? <p>No passkey yet.</p> : null}
        <ul>
          {view.passkeys.map((passkey, index) => (
            <li>
              Passkey {index + 1}, added {when(passkey.createdAt)}
              {lastFactor || !view.verified ? null : (
                <form method="post" action={DASHBOARD_PATHS.securityPasskeyRemove}>
                  <CsrfField session={session} />
                  <input type="hidden" name="passkeyId" value={passkey.id} />
                  <button type="submit" class="secondary">
                    Remove passkey {index + 1}
                  </button>
                </form>
              )}
            </li>
          ))}
        </ul>
        {view.verified ? (
          <form method="post" action={DASHBOARD_PATHS.securityPasskeys}>
            <CsrfField session={session} />
            <input type="hidden" name="credential" value="" />
            <p class="hint" data-passkey-status role="status"></p>
            <button type="submit" data-passkey="register" data-options={DASHBOARD_PATHS.securityPasskeyOptions}>
              Add a passkey
            </button>
            <noscript>
              <p>Adding a passkey needs JavaScript.</p>
            </noscript>
          </form>
        ) : null}
      </section>
      <section class="card" aria-labelledby="recovery">
        <h2 id="recovery">Recovery codes</h2>
        <p>{view.recoveryCodesLeft} of 10 unused. New codes replace all the old ones and are shown once.</p>
        {view.verified ? (
          <form method="post" action={DASHBOARD_PATHS.securityRecoveryCodes}>
            <CsrfField session={session} />
            <button type="submit" class="secondary">
              Make new recovery codes
            </button>
          </form>
        ) : null}
      </section>
      <section class="card" aria-labelledby="sessions">
        <h2 id="sessions">Where you are signed in</h2>
        <div class="table-wrap">
          <table aria-labelledby="sessions">
            <thead>
              <tr>
                <th scope="col">Signed in</th>
                <th scope="col">Last active</th>
                <th scope="col">From</th>
                <th scope="col">
                  <span class="visually-hidden">Action</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {view.sessions.map((item) => (
                <tr data-session-id={item.id}>
                  <td>{when(item.createdAt)}</td>
                  <td>{when(item.lastSeenAt)}</td>
                  <td>
                    {item.ipAddress}
                    <span class="hint">{item.userAgent}</span>
                  </td>
                  <td>
                    {item.id === view.current.id ? (
                      'This session'
                    ) : (
                      <form method="post" action={DASHBOARD_PATHS.securitySessionRevoke}>
                        <CsrfField session={session} />
                        <input type="hidden" name="sessionId" value={item.id} />
                        <button type="submit" class="secondary">
                          Sign out this session
                        </button>
                      </form>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <form method="post" action={DASHBOARD_PATHS.signOutEverywhere}>
          <CsrfField session={session} />
          <button type="submit">Sign out everywhere</button>
        </form>
      </section>
    </DashboardLayout>,
  );
}

/** New recovery codes: the POST's own answer (never in a URL). */
export function newCodesPage(session: DashboardSession, codes: string[]): EdgeAnswer {
  return dashboardPage(
    200,
    <DashboardLayout session={session} title="New recovery codes" current={DASHBOARD_PATHS.security}>
      <p>Your old recovery codes no longer work. Keep these somewhere safe: they are shown only now.</p>
      <ul class="codes mono" data-recovery-codes>
        {codes.map((code) => (
          <li>{code}</li>
        ))}
      </ul>
      <p>
        <a href={DASHBOARD_PATHS.security}>Back to Security</a>
      </p>
    </DashboardLayout>,
  );
}

/** Step-up: the second factor again before a sensitive action (5 minutes). */
export function verifyPage(session: DashboardSession, next: string, hasPasskeys: boolean, error?: string): EdgeAnswer {
  return dashboardPage(
    error ? 401 : 200,
    <DashboardLayout session={session} title="Confirm it is you">
      {error ? (
        <div class="alert" role="alert">
          {error}
        </div>
      ) : null}
      <p>This action needs your second factor again (it then counts for 5 minutes).</p>
      <form method="post" action={DASHBOARD_PATHS.verify(next)} class="card">
        <CsrfField session={session} />
        <input type="hidden" name="next" value={next} />
        <div class="field">
          <label for="code">Code from your authenticator app</label>
          <input
            id="code"
            name="code"
            type="text"
            inputmode="numeric"
            autocomplete="one-time-code"
            maxlength={10}
            required
          />
        </div>
        <button type="submit">Confirm</button>
      </form>
      {hasPasskeys ? (
        <form method="post" action={DASHBOARD_PATHS.verify(next)} class="card">
          <CsrfField session={session} />
          <input type="hidden" name="next" value={next} />
          <input type="hidden" name="credential" value="" />
          <p class="hint" data-passkey-status role="status"></p>
          <button
            type="submit"
            class="secondary"
            data-passkey="authenticate"
            data-options={DASHBOARD_PATHS.verifyPasskeyOptions}
          >
            Confirm with a passkey
          </button>
        </form>
      ) : null}
    </DashboardLayout>,
  );
}
