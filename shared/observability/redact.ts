/**
 * The redaction guard of every log line (shared/observability/log.ts passes it to Powertools'
 * Logger as its JSON replacer): no API key, webhook secret, card number, CVC, password, TOTP
 * secret, session id or token ever reaches a log line, whatever a caller hands the logger (an
 * attribute, an error's message or stack, a nested object). Two nets:
 *
 * - by key: an attribute whose name says it holds a secret is replaced whole (SECRET_KEY);
 * - by value: secrets the service formats recognisably are cut out of any string (API keys
 *   `svc_test_`/`svc_live_`/`svc_admin_`, webhook secrets `whsec_`, bearer tokens, otpauth URIs,
 *   session ids `ses_`, Basic credentials, cookie headers, the values of secret-named query or
 *   cookie parameters (`?token=`, `password=`, `..._session=`), and runs of 13 to 19 digits that
 *   pass the Luhn check, whatever touches them: card numbers).
 *
 * A CVC, a password or a TOTP secret has no shape of its own: they are caught by their key, and
 * never put in a message (the code logs ids and codes, not inputs).
 */
export const REDACTED = '[redacted]';

/** Attribute names whose value is never logged (case-insensitive, anywhere in the name). */
const SECRET_KEY =
  /pass(word|phrase|wd)|^pass$|pwd|secret|token|authorization|cookie|cvc|cvv|securitycode|cardnumber|card_number|^pan$|^number$|totp|otp$|session|api[-_]?key|^key$|privatekey|credential|signature/i;

/** Formatted secrets, cut out of any string (whole, or the value after the name that keeps `$1`). */
const SECRET_VALUES: readonly (readonly [RegExp, string])[] = [
  [/svc_(?:test|live|admin)_[0-9A-Za-z]+/g, REDACTED],
  [/whsec_[A-Za-z0-9+/=_-]+/g, REDACTED],
  [/\bBearer\s+[^\s"',;]+/gi, REDACTED],
  [/\bBasic\s+[A-Za-z0-9+/]{8,}={0,2}/g, REDACTED],
  [/otpauth:\/\/[^\s"']+/gi, REDACTED],
  [/\bses_[0-9A-Za-z]+/g, REDACTED],
  // A cookie header's whole value, and any secret-named parameter of a query string or a cookie.
  [/(\b(?:set-)?cookie:\s*)[^\n"]+/gi, `$1${REDACTED}`],
  [
    /((?:^|[?&;,\s])[\w.-]*(?:token|pass(?:word|wd)?|pwd|secret|session|key|code|sig|signature|auth)[\w.-]*=)[^&;#\s"',]+/gi,
    `$1${REDACTED}`,
  ],
];

/** 13 to 19 digits, possibly grouped by spaces or dashes, not inside a longer run of digits: a card number when the Luhn check passes. */
const DIGIT_RUN = /(?<!\d)\d(?:[ -]?\d){12,18}(?!\d)/g;

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** `text` with every formatted secret and card number replaced by REDACTED. */
export function redactText(text: string): string {
  let out = text;
  for (const [pattern, replacement] of SECRET_VALUES) out = out.replace(pattern, replacement);
  return out.replace(DIGIT_RUN, (run) => (luhn(run.replace(/[ -]/g, '')) ? REDACTED : run));
}

/** Whether an attribute of this name is never logged. */
const isSecretKey = (key: string): boolean => SECRET_KEY.test(key);

/**
 * The JSON replacer of every log line: called by JSON.stringify for every key and value, nested
 * ones included (an Error is turned into plain fields first by Powertools, whose fields then pass
 * here too).
 */
export function redactingReplacer(key: string, value: unknown): unknown {
  if (key !== '' && isSecretKey(key) && value !== undefined && value !== null) return REDACTED;
  if (typeof value === 'string') return redactText(value);
  if (value instanceof Error) {
    return {
      name: value.name,
      message: redactText(value.message),
      ...(value.stack ? { stack: redactText(value.stack) } : {}),
      ...('code' in value && typeof value.code === 'string' ? { code: value.code } : {}),
      ...(value.cause !== undefined ? { cause: value.cause } : {}),
    };
  }
  return value;
}
