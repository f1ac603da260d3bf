import { ApiError, validationError } from '../domain/errors.js';
import type { KeptValues, MethodChoice } from './pages/payment-fields.js';

/** A page form is a few short fields; anything larger is refused before it is read. */
export const MAX_FORM_BYTES = 8_192;
const MAX_FIELD_LENGTH = 200;

/** The fields of an `application/x-www-form-urlencoded` body (the only kind the pages' forms send). */
export function formFields(contentType: string | undefined, text: string | undefined): Map<string, string> {
  const essence = (contentType ?? '').split(';')[0]?.trim().toLowerCase();
  if (essence !== 'application/x-www-form-urlencoded')
    throw new ApiError('UNSUPPORTED_MEDIA_TYPE', 'Forms are sent as application/x-www-form-urlencoded.');
  const fields = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(text ?? '')) {
    if (value.length > MAX_FIELD_LENGTH) throw validationError(name, `must be at most ${MAX_FIELD_LENGTH} characters`);
    if (!fields.has(name)) fields.set(name, value);
  }
  return fields;
}

const digits = (value: string | undefined) => (value ?? '').replace(/[\s-]/g, '');

/** `12` -> 12; `''` -> undefined (the schema then names the missing field); `ab` -> NaN (named as not a number). */
function whole(value: string | undefined): number | undefined {
  const text = (value ?? '').trim();
  return text === '' ? undefined : Number(text);
}

/** A two-digit year as people type it on cards (`29` -> 2029). */
function fullYear(value: string | undefined): number | undefined {
  const year = whole(value);
  return year !== undefined && year >= 0 && year < 100 ? 2000 + year : year;
}

/**
 * The PaymentMethodInput of a card or bank account form: only the fields of the chosen kind (the
 * operation's strict schema refuses anything else), numbers without the spaces people type.
 */
export function paymentMethodInput(method: MethodChoice, fields: Map<string, string>): Record<string, unknown> {
  if (method === 'card') {
    return {
      type: 'card',
      number: digits(fields.get('number')),
      expMonth: whole(fields.get('expMonth')),
      expYear: fullYear(fields.get('expYear')),
      cvc: digits(fields.get('cvc')) || undefined,
    };
  }
  return {
    type: 'us_bank_account',
    routingNumber: digits(fields.get('routingNumber')),
    accountNumber: digits(fields.get('accountNumber')),
    accountHolderName: (fields.get('accountHolderName') ?? '').trim(),
    accountType: fields.get('accountType') ?? 'checking',
  };
}

/** What a form shows again after a refusal: never the number, the account number or the CVC. */
export function keptValues(fields: Map<string, string>): KeptValues {
  const kept: KeptValues = {};
  for (const name of ['expMonth', 'expYear', 'accountHolderName', 'accountType'] as const) {
    const value = fields.get(name);
    if (value !== undefined) kept[name] = value;
  }
  return kept;
}

export function methodChoice(query: Record<string, string | undefined> | undefined): MethodChoice {
  return query?.method === 'bank' ? 'bank' : 'card';
}
