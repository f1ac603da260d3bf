import * as z from 'zod/mini';
import { describe, name, text } from './fields.js';

/**
 * Input fields of customers and invoices shared by both groups (one schema each): metadata, and
 * what a hosted page's form posts as a payment method (the processor port's PaymentMethodInput,
 * checked again by the processor: Luhn, expiry, ABA checksum).
 */
export const MAX_METADATA_KEYS = 20;
export const MAX_METADATA_KEY_LENGTH = 40;
export const MAX_METADATA_VALUE_LENGTH = 500;
/** Longer than any valid number, so only garbage is refused by length (the processor checks the digits). */
const MAX_NUMBER_TEXT = 32;
const MIN_EXP_YEAR = 2000;
const MAX_EXP_YEAR = 2100;

/** Keys an object can not hold as data in JavaScript (a parser or a spread drops or misreads them): refused. */
const RESERVED_METADATA_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Metadata: keys single-line text (no control character, DEL or lone surrogate; not `__proto__`,
 * `constructor` or `prototype`), values text that may hold tab and newline (decisions.md section 9).
 */
const RESERVED_KEY_MESSAGE = 'keys must not be __proto__, constructor or prototype';

/** Zod drops a `__proto__` key before any key check (a parsed JSON body holds it as its own key): refused here. */
const refuseProtoKey = () =>
  z.transform((input: unknown, payload) => {
    if (typeof input === 'object' && input !== null && Object.hasOwn(input, '__proto__'))
      payload.issues.push({ code: 'custom', message: RESERVED_KEY_MESSAGE, input, path: [] });
    return input;
  });

export const metadata = (description: string) =>
  describe(
    z.pipe(
      refuseProtoKey(),
      z
        .record(
          text(MAX_METADATA_KEY_LENGTH, 'A key.', {
            min: 1,
            tooLong: `keys must be at most ${MAX_METADATA_KEY_LENGTH} characters`,
          }).check(z.refine((key: string) => !RESERVED_METADATA_KEYS.has(key), RESERVED_KEY_MESSAGE)),
          text(MAX_METADATA_VALUE_LENGTH, 'A value.', {
            multiline: true,
            tooLong: `values must be at most ${MAX_METADATA_VALUE_LENGTH} characters`,
          }),
        )
        .check(
          z.refine(
            (value) => Object.keys(value).length <= MAX_METADATA_KEYS,
            `must have at most ${MAX_METADATA_KEYS} keys`,
          ),
          z.meta({ maxProperties: MAX_METADATA_KEYS }),
        ),
    ),
    `${description} At most ${MAX_METADATA_KEYS} keys of at most ${MAX_METADATA_KEY_LENGTH} characters (not __proto__, constructor or prototype), string values of at most ${MAX_METADATA_VALUE_LENGTH}; no control characters (values may hold tab and newline).`,
  );
export const digits = (description: string) =>
  describe(z.string().check(z.maxLength(MAX_NUMBER_TEXT, 'is too long')), description);
export const expMonth = () =>
  describe(z.int().check(z.minimum(1, 'must be 1 to 12'), z.maximum(12, 'must be 1 to 12')), 'Expiry month, 1-12.');
export const expYear = () =>
  describe(
    z
      .int()
      .check(
        z.minimum(MIN_EXP_YEAR, 'must be a four-digit year'),
        z.maximum(MAX_EXP_YEAR, 'must be a four-digit year'),
      ),
    'Expiry year, four digits.',
  );
export const cvc = () =>
  describe(
    z.string().check(z.maxLength(4, 'must be 3 or 4 digits')),
    'The 3 (Amex: 4) digit security code; checked, never stored.',
  );
export const accountType = () => describe(z.enum(['checking', 'savings']), 'checking or savings.');
export const holder = () => name("The account holder's name.");

/** What the hosted page's form posts (the processor port's PaymentMethodInput). */
export const paymentMethodInput = () =>
  z.discriminatedUnion('type', [
    z.strictObject({
      type: z.literal('card'),
      number: digits('The card number, digits only (Luhn-checked). Stored encrypted; only brand and last 4 are shown.'),
      expMonth: expMonth(),
      expYear: expYear(),
      cvc: z.optional(cvc()),
    }),
    z.strictObject({
      type: z.literal('us_bank_account'),
      routingNumber: digits('The 9-digit ABA routing number (checksum-checked).'),
      accountNumber: digits('The account number, 4 to 17 digits. Stored encrypted; only the last 4 are shown.'),
      accountHolderName: holder(),
      accountType: accountType(),
    }),
  ]);
