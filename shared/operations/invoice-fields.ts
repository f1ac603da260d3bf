import * as z from 'zod/mini';
import { MAX_MEMO } from '../domain/invoices/invoice-rules.js';
import { describe, text } from './fields.js';
import { metadata } from './payment-method-fields.js';

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
  metadata: z.optional(metadata('Your key-value data; never shown to the customer.')),
});
