import { renderSVG } from 'uqr';
import { totpUri } from '../../sign-in/totp.js';

/** A TOTP secret to add to an app: as text (grouped by four), as an otpauth:// link, as a QR code (an SVG image). */
export function TotpEnrolment(props: { secret: string; email: string; error?: string }) {
  const uri = totpUri(props.secret, props.email);
  const qr = `data:image/svg+xml;base64,${Buffer.from(renderSVG(uri)).toString('base64')}`;
  return (
    <>
      <input type="hidden" name="totpSecret" value={props.secret} />
      <p>
        Scan this code with your authenticator app, or <a href={uri}>open it in an app on this device</a>, or type the
        key:
      </p>
      <p>
        <img
          class="qr"
          src={qr}
          width={180}
          height={180}
          alt="QR code of your authenticator key (the same key is written below)"
        />
      </p>
      <p>
        Key:{' '}
        <span class="mono" data-totp-secret>
          {props.secret.replace(/(.{4})/g, '$1 ').trim()}
        </span>
      </p>
      <div class="field">
        <label for="code">
          Code from the app
          <span class="hint">Six digits, to confirm the app is set up.</span>
        </label>
        <input
          id="code"
          name="code"
          type="text"
          inputmode="numeric"
          autocomplete="one-time-code"
          maxlength={10}
          aria-invalid={props.error ? 'true' : undefined}
          aria-describedby={props.error ? 'code-error' : undefined}
        />
        {props.error ? (
          <span class="hint" id="code-error">
            {props.error}
          </span>
        ) : null}
      </div>
    </>
  );
}

/** Recovery codes, shown once (the page that shows them is the POST's own answer). */
export function RecoveryCodes(props: { codes: string[] }) {
  return (
    <section class="card" aria-labelledby="recovery-codes">
      <h2 id="recovery-codes">Your recovery codes</h2>
      <p>
        Keep these somewhere safe (a password manager, a printout). Each one signs you in once if you lose your
        authenticator or passkey. They are shown only now.
      </p>
      <ul class="codes mono" data-recovery-codes>
        {props.codes.map((code) => (
          <li>{code}</li>
        ))}
      </ul>
    </section>
  );
}
