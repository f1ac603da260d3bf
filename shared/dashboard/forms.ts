import { ApiError, validationError } from '../domain/errors.js';

/** A dashboard form: a few fields, a passkey's answer the longest; anything larger is refused before it is read. */
export const MAX_DASHBOARD_FORM_BYTES = 32_768;
const MAX_FIELD_LENGTH = 16_384;

/**
 * The fields of a form post (`application/x-www-form-urlencoded`) or of the script's JSON post (an
 * object of strings, numbers or booleans). A name sent more than once (checkboxes) keeps every
 * value, joined by commas.
 */
export function dashboardFormFields(contentType: string | undefined, text: string | undefined): Map<string, string> {
  const essence = (contentType ?? '').split(';')[0]?.trim().toLowerCase();
  const fields = new Map<string, string>();
  const add = (name: string, value: string) => {
    if (value.length > MAX_FIELD_LENGTH) throw validationError(name, `must be at most ${MAX_FIELD_LENGTH} characters`);
    const before = fields.get(name);
    fields.set(name, before === undefined ? value : `${before},${value}`);
  };
  if (essence === 'application/x-www-form-urlencoded') {
    for (const [name, value] of new URLSearchParams(text ?? '')) add(name, value);
    return fields;
  }
  if (essence === 'application/json') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text ?? '');
    } catch {
      throw validationError('body', 'must be a JSON object');
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw validationError('body', 'must be a JSON object');
    for (const [name, value] of Object.entries(parsed)) {
      if (typeof value === 'string') add(name, value);
      else if (typeof value === 'number' || typeof value === 'boolean') add(name, String(value));
      else throw validationError(name, 'must be a string');
    }
    return fields;
  }
  throw new ApiError('UNSUPPORTED_MEDIA_TYPE', 'Forms are sent as application/x-www-form-urlencoded.');
}

/** `next` of a redirect: a dashboard path of ours only (never another site, never `//host`). */
export function safeNext(next: string | undefined): string {
  if (next === undefined || next.length > 2000) return '/dashboard';
  if (!/^\/dashboard(?:[/?#]|$)/.test(next) || next.includes('\\') || /[\u0000-\u001f]/.test(next)) return '/dashboard';
  return next;
}
