import { MAX_EMAIL_LENGTH } from '../../sign-in/sign-in-flows.js';
import { MAX_PASSWORD_LENGTH } from '../../domain/sign-in/password-rules.js';
import { DASHBOARD_PATHS } from '../paths.js';
import { CSRF_FIELD } from '../layout.js';
import { Alert, Notice, signedOutPage } from './frame.js';
import type { EdgeAnswer } from './types.js';

export interface SignInView {
  csrf: string;
  next: string;
  email?: string;
  error?: string;
  notice?: string;
  status?: number;
}

const withNext = (path: string, next: string) =>
  next === DASHBOARD_PATHS.home ? path : `${path}?next=${encodeURIComponent(next)}`;

function EmailAndPassword(props: { email?: string }) {
  return (
    <>
      <div class="field">
        <label for="email">Email</label>
        <input
          id="email"
          name="email"
          type="email"
          autocomplete="email"
          required
          maxlength={MAX_EMAIL_LENGTH}
          value={props.email ?? ''}
        />
      </div>
      <div class="field">
        <label for="password">Password</label>
        <input
          id="password"
          name="password"
          type="password"
          autocomplete="current-password"
          required
          maxlength={MAX_PASSWORD_LENGTH}
        />
      </div>
    </>
  );
}

/** Email + password + code; a recovery code instead; a passkey alone (with the script). */
export function signInPage(view: SignInView): EdgeAnswer {
  return signedOutPage(
    view.status ?? 200,
    'Sign in',
    <>
      {view.error ? <Alert>{view.error}</Alert> : null}
      {view.notice ? <Notice>{view.notice}</Notice> : null}
      <section class="card" aria-labelledby="with-code">
        <h2 id="with-code">With your password and a code</h2>
        <form method="post" action={DASHBOARD_PATHS.signIn} data-busy-label="Signing in…">
          <input type="hidden" name={CSRF_FIELD} value={view.csrf} />
          <input type="hidden" name="next" value={view.next} />
          <EmailAndPassword email={view.email} />
          <div class="field">
            <label for="code">
              Code from your authenticator app
              <span class="hint">Six digits.</span>
            </label>
            <input
              id="code"
              name="code"
              type="text"
              inputmode="numeric"
              autocomplete="one-time-code"
              required
              maxlength={10}
              pattern="[0-9 ]{6,10}"
            />
          </div>
          <div class="actions">
            <button type="submit">Sign in</button>
          </div>
        </form>
        <p>
          <a href={withNext(DASHBOARD_PATHS.signInRecovery, view.next)}>Use a recovery code instead</a>
        </p>
      </section>
      <section class="card" aria-labelledby="with-passkey">
        <h2 id="with-passkey">With a passkey</h2>
        <form method="post" action={DASHBOARD_PATHS.signInPasskey}>
          <input type="hidden" name={CSRF_FIELD} value={view.csrf} />
          <input type="hidden" name="next" value={view.next} />
          <input type="hidden" name="credential" value="" />
          <p class="hint" data-passkey-status role="status"></p>
          <div class="actions">
            <button type="submit" data-passkey="authenticate" data-options={`${DASHBOARD_PATHS.signInPasskey}/options`}>
              Sign in with a passkey
            </button>
          </div>
          <noscript>
            <p>Signing in with a passkey needs JavaScript. Use your password and a code instead.</p>
          </noscript>
        </form>
      </section>
    </>,
  );
}

export function recoveryPage(view: SignInView): EdgeAnswer {
  return signedOutPage(
    view.status ?? 200,
    'Sign in with a recovery code',
    <>
      {view.error ? <Alert>{view.error}</Alert> : null}
      <p>
        Each recovery code works once. After signing in, set up your authenticator again on the Security page if you
        lost it.
      </p>
      <form method="post" action={DASHBOARD_PATHS.signInRecovery} class="card" data-busy-label="Signing in…">
        <input type="hidden" name={CSRF_FIELD} value={view.csrf} />
        <input type="hidden" name="next" value={view.next} />
        <EmailAndPassword email={view.email} />
        <div class="field">
          <label for="recoveryCode">
            Recovery code
            <span class="hint">Like abcd-efgh-jkmn.</span>
          </label>
          <input
            id="recoveryCode"
            name="recoveryCode"
            type="text"
            autocomplete="one-time-code"
            required
            maxlength={20}
          />
        </div>
        <div class="actions">
          <button type="submit">Sign in</button>
        </div>
      </form>
      <p>
        <a href={withNext(DASHBOARD_PATHS.signIn, view.next)}>Back to sign-in</a>
      </p>
    </>,
  );
}
