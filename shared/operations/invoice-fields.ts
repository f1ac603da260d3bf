import * as z from 'zod/mini';
import { MAX_MEMO } from '../domain/invoices/invoice-rules.js';
import { describe, text } from './fields.js';
import { metadata } from './payment-method-fields.js';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;

/**
 * A date that exists: parsed, and its day read back the same (Date.parse rolls 2026-02-30 over to
 * March 2). A due date in the past is allowed, as Stripe allows it (docs/api.md, Invoices).
 */
function isCalendarDate(value: string): boolean {
  if (Number.isNaN(Date.parse(value))) return false;
  const [year, month, day] = value.slice(0, 10).split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** The optional fields of a new invoice. */
export const invoiceFields = () => ({
  memo: z.optional(text(MAX_MEMO, 'A note shown to the customer.', { multiline: true })),
  dueDate: z.optional(
    describe(
      z
        .string()
        .check(
          z.maxLength(40, 'must be an ISO 8601 date or date-time'),
          z.regex(ISO_DATE, 'must be an ISO 8601 date or date-time'),
          z.refine(isCalendarDate, 'must be a real date (2026-02-30 is not)'),
        ),
      'When payment is due: an ISO 8601 date ("2026-12-15") or date-time.',
    ),
  ),
  metadata: z.optional(metadata('Your key-value data; never shown to the customer.')),
});
