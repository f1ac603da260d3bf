import * as z from 'zod/mini';
import { MAX_MEMO } from '../domain/invoices/invoice-rules.js';
import type { PaymentMethodInput } from '../domain/payment-methods/processor.js';
import { describe, text } from './fields.js';

/** Bounds of an invoice's metadata: your key-value data, never shown to the customer. */
export const MAX_METADATA_KEYS = 50;
export const MAX_METADATA_KEY_LENGTH = 40;
export const MAX_METADATA_VALUE_LENGTH = 500;

export const metadata = (description: string) =>
  z.optional(
    describe(
      z
        .record(
          text(MAX_METADATA_KEY_LENGTH, 'A metadata key.', { min: 1 }),
          text(MAX_METADATA_VALUE_LENGTH, 'A metadata value.'),
        )
        .check(
          z.refine(
            (value: Record<string, string>) => Object.keys(value).length <= MAX_METADATA_KEYS,
            `must hold at most ${MAX_METADATA_KEYS} keys`,
          ),
        ),
      `${description} At most ${MAX_METADATA_KEYS} keys of 1-${MAX_METADATA_KEY_LENGTH} characters, string values of at most ${MAX_METADATA_VALUE_LENGTH}.`,
    ),
  );

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;

/** The optional fields of a new invoice. */
export const invoiceFields = () => ({
  memo: z.optional(text(MAX_MEMO, 'A note shown to the customer.', { multiline: true })),
  dueDate: z.optional(
    describe(
      z.string().check(
        z.maxLength(40, 'must be an ISO 8601 date or date-time'),
        z.regex(ISO_DATE, 'must be an ISO 8601 date or date-time'),
        z.refine((value: string) => !Number.isNaN(Date.parse(value)), 'must be a real date'),
      ),
      'When payment is due: an ISO 8601 date ("2026-12-15") or date-time.',
    ),
  ),
  metadata: metadata('Your key-value data.'),
});

const digits = (min: number, max: number, what: string) =>
  z.string().check(z.regex(new RegExp(`^\\d{${min},${max}}$`), `must be ${min} to ${max} digits`), z.describe(what));

/** What the customer types on the checkout page: a card or a US bank account (checked again by the processor). */
export const paymentMethodInput = (): z.ZodMiniType<PaymentMethodInput> =>
  z.discriminatedUnion('type', [
    z.strictObject({
      type: z.literal('card'),
      number: digits(12, 19, 'The card number (digits only). Never stored in clear, never logged.'),
      expMonth: describe(z.int().check(z.gte(1), z.lte(12)), 'Expiry month, 1-12.'),
      expYear: describe(z.int().check(z.gte(2000), z.lte(2100)), 'Expiry year, 4 digits.'),
      cvc: z.optional(digits(3, 4, 'The card security code (never stored).')),
    }),
    z.strictObject({
      type: z.literal('us_bank_account'),
      routingNumber: digits(9, 9, 'The 9-digit ABA routing number.'),
      accountNumber: digits(4, 17, 'The account number (never stored in clear).'),
      accountHolderName: text(200, "The account holder's name.", { min: 1, trim: true }),
      accountType: describe(z.enum(['checking', 'savings']), 'checking or savings.'),
    }),
  ]) as unknown as z.ZodMiniType<PaymentMethodInput>;
