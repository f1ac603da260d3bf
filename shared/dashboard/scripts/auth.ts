/**
 * The auth pages' enhancements, part of the dashboard's one ES module (shared/dashboard/assets.ts).
 * Enhancement only: every form works without it (the passkey buttons say they need JavaScript).
 *
 * Passkeys: a submit button with `data-passkey="register"` or `"authenticate"` and `data-options`
 * (the URL of its challenge) runs the WebAuthn ceremony (our own few lines: no library), puts the
 * answer as JSON in its form's `credential` field, and submits the form with the button's name and
 * value. The form's `_csrf` goes with the challenge request as X-CSRF-Token.
 */
export const AUTH_SCRIPT = `
const b64uToBytes = (text) => {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const padded = base64 + '==='.slice((base64.length + 3) % 4);
  return Uint8Array.from(atob(padded), (char) => char.charCodeAt(0));
};
const bytesToB64u = (buffer) => {
  let text = '';
  for (const byte of new Uint8Array(buffer)) text += String.fromCharCode(byte);
  return btoa(text).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
};
const withIds = (list) => (list || []).map((item) => ({ ...item, id: b64uToBytes(item.id) }));
async function passkeyCeremony(kind, options) {
  if (kind === 'register') {
    const credential = await navigator.credentials.create({
      publicKey: { ...options, challenge: b64uToBytes(options.challenge), user: { ...options.user, id: b64uToBytes(options.user.id) }, excludeCredentials: withIds(options.excludeCredentials) },
    });
    const response = credential.response;
    return {
      id: credential.id, rawId: bytesToB64u(credential.rawId), type: credential.type,
      authenticatorAttachment: credential.authenticatorAttachment || undefined,
      clientExtensionResults: credential.getClientExtensionResults(),
      response: {
        clientDataJSON: bytesToB64u(response.clientDataJSON),
        attestationObject: bytesToB64u(response.attestationObject),
        transports: typeof response.getTransports === 'function' ? response.getTransports() : [],
      },
    };
  }
  const credential = await navigator.credentials.get({
    publicKey: { ...options, challenge: b64uToBytes(options.challenge), allowCredentials: withIds(options.allowCredentials) },
  });
  const response = credential.response;
  return {
    id: credential.id, rawId: bytesToB64u(credential.rawId), type: credential.type,
    authenticatorAttachment: credential.authenticatorAttachment || undefined,
    clientExtensionResults: credential.getClientExtensionResults(),
    response: {
      clientDataJSON: bytesToB64u(response.clientDataJSON),
      authenticatorData: bytesToB64u(response.authenticatorData),
      signature: bytesToB64u(response.signature),
      userHandle: response.userHandle ? bytesToB64u(response.userHandle) : undefined,
    },
  };
}
for (const button of document.querySelectorAll('button[data-passkey]')) {
  button.addEventListener('click', async (event) => {
    const form = button.form;
    const status = form.querySelector('[data-passkey-status]');
    const say = (text) => { if (status) status.textContent = text; };
    event.preventDefault();
    if (!window.PublicKeyCredential) { say('This browser can not use passkeys.'); return; }
    if (button.dataset.passkey === 'register' && form.querySelector('input[name="password"]') && !form.reportValidity()) return;
    try {
      say('Waiting for your passkey…');
      const csrf = form.querySelector('input[name="_csrf"]');
      const answer = await fetch(button.dataset.options, {
        method: 'POST', credentials: 'same-origin',
        headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrf ? csrf.value : '' }, body: '{}',
      });
      if (!answer.ok) {
        const refusal = await answer.json().catch(() => ({}));
        if (refusal.verify) { window.location.assign(refusal.verify); return; }
        say('The passkey could not be used. Reload the page and try again.');
        return;
      }
      const credential = await passkeyCeremony(button.dataset.passkey, await answer.json());
      form.querySelector('input[name="credential"]').value = JSON.stringify(credential);
      if (button.name) {
        const choice = document.createElement('input');
        choice.type = 'hidden'; choice.name = button.name; choice.value = button.value;
        form.append(choice);
      }
      form.submit();
    } catch {
      say('The passkey was not used. Try again, or use another way.');
    }
  });
}
`;
