import { describe, expect, it } from 'vitest';
import { REDACTED, redactingReplacer, redactText } from '../../shared/observability/redact.js';

/**
 * The redaction guard (shared/observability/redact.ts) is the last net of every
 * log line ("never a key, secret, card number, CVC, password, TOTP secret or session id"). Secrets
 * written as text (an error message, a URL, a header) or under a name a key-only guard would miss.
 */
const logged = (value: unknown) => JSON.stringify({ value }, redactingReplacer);

describe('redaction guard: secrets as text and under unusual names', () => {
  it('cuts secrets out of URLs and query strings (a token, a password, a session in a query)', () => {
    const url = 'https://hooks.example.com/cb?token=abcdefghijklmnop1234&password=hunter2hunter2&session=s3ss10nv4lue';
    const out = redactText(url);
    expect(out).not.toContain('abcdefghijklmnop1234');
    expect(out).not.toContain('hunter2hunter2');
    expect(out).not.toContain('s3ss10nv4lue');
  });

  it('cuts a Luhn-valid card number touching a letter or an underscore (pan_4111..., 4111...x)', () => {
    expect(redactText('declined pan_4111111111111111')).not.toContain('4111111111111111');
    expect(redactText('card=4111111111111111x')).not.toContain('4111111111111111');
  });

  it('cuts a session cookie and Basic credentials written as header text', () => {
    const out = redactText('Cookie: __Host-allowance_session=AbCdEf0123456789xyz; authorization: Basic dXNlcjpwYXNz');
    expect(out).not.toContain('AbCdEf0123456789xyz');
    expect(out).not.toContain('dXNlcjpwYXNz');
  });

  it('replaces password-like and key-like attributes whole (passwordConfirmation, password2, pwd, x-api-key)', () => {
    const out = logged({
      passwordConfirmation: 'hunter2a',
      password2: 'hunter2b',
      pwd: 'hunter2c',
      headers: { 'x-api-key': 'k-7f3a9c' },
    });
    for (const secret of ['hunter2a', 'hunter2b', 'hunter2c', 'k-7f3a9c']) expect(out).not.toContain(secret);
    expect(out).toContain(REDACTED);
  });
});
