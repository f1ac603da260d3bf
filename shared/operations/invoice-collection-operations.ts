import * as z from 'zod/mini';
import { AUDIT } from '../domain/audit/actions.js';
import type { InvoiceCollectionService } from '../domain/invoices/invoice-collection.js';
import {
  presentRecurringSchedule,
  presentUsdcDeposit,
  presentUsdcIncoming,
  presentUsdcReceipt,
} from '../domain/invoices/invoice-collection-view.js';
import { RECURRING_INTERVALS } from '../domain/invoices/invoice-collection-rules.js';
import { HINTS, operation, type Operation } from './define.js';
import { amount, dateTime, describe, text } from './fields.js';
import { listOperation } from './list.js';

/** The services the collection's operations call (the invoices group provides them). */
export interface InvoiceCollectionServices {
  invoiceCollection: InvoiceCollectionService;
}

const op = operation<InvoiceCollectionServices>();
const list = listOperation<InvoiceCollectionServices>();
const MAX_ADDRESS_TEXT = 64;

/** The `recurring` field of POST /v1/invoices/charge (docs/api.md "Invoices: recurring charges"). */
export const recurringField = () =>
  z.optional(
    describe(
      z.strictObject({
        interval: describe(
          z.enum(RECURRING_INTERVALS),
          'weekly (every 7 days), monthly, quarterly or yearly (calendar months from the first charge; a day missing in a month is its last day).',
        ),
        endAt: z.optional(dateTime('No charge runs after this date-time (ISO 8601 with offset, in the future).')),
      }),
      "Charge again on this schedule (sandbox: durations divided by TIME_SCALE): each run creates, finalizes and charges a new invoice of the same line on the customer's method. Cancel with DELETE /v1/invoices/{id}/recurring on the first invoice.",
    ),
  );

/**
 * Collecting invoices (docs/api.md "Invoices: collection"): USDC deposits and the sandbox chain,
 * the unmatched USDC receipts, and cancelling a recurring charge. The ACH settlement, recurring
 * runs and retries are expiry messages (functions/expiry/handler.ts), not operations.
 */
export const INVOICE_COLLECTION_OPERATIONS: readonly Operation<InvoiceCollectionServices>[] = [
  op({
    name: 'createInvoiceUsdcDeposit',
    summary: 'Get the USDC deposit address of an invoice (public)',
    description:
      'A FINALIZED invoice, by its public slug, without a key: its own USDC deposit address on Ethereum (made on the first request, the same afterwards) and the exact amount due. A transfer of exactly that amount pays the invoice (USDC fees: 0.50 + 0.5%); any other amount credits nothing (`invoice.usdc_unmatched`). Other states: INVALID_STATE.',
    access: 'public',
    audit: AUDIT.invoice.usdcAddress,
    http: { method: 'POST', path: '/v1/invoices/pay/{slug}/usdc', status: 200 },
    params: { slug: "The invoice's public slug (from its `hostedUrl`)." },
    output: 'usdcDepositView',
    errors: ['INVOICE_NOT_FOUND', 'INVALID_STATE', 'CONCURRENT_UPDATE'],
    run: ({ services, auth, audit, params }) => services.invoiceCollection.depositBySlug(params.slug!, audit, auth),
    present: presentUsdcDeposit,
  }),
  op({
    name: 'createTestUsdcIncoming',
    summary: 'Simulate an incoming USDC transfer (test helper)',
    description:
      "Sandbox only: `amount` USDC arrives at `address`. Exactly the amount due at the address of one of the organization's FINALIZED invoices pays it (PAID, the wallet credited the total minus 0.50 and 0.5%, `invoice.paid`). Anything else (another amount, an address of no open invoice of yours: paid, voided, unknown) credits nothing: an UNMATCHED receipt (GET /v1/usdc-receipts) and `invoice.usdc_unmatched`.",
    access: 'organization',
    permission: 'invoices:write',
    audit: AUDIT.invoice.usdcIncoming,
    events: ['invoice.paid', 'invoice.usdc_unmatched'],
    sandboxOnly: true,
    http: { method: 'POST', path: '/v1/test-helpers/usdc/incoming', status: 200 },
    body: () =>
      z.strictObject({
        address: text(MAX_ADDRESS_TEXT, 'The receiving address (0x + 40 hexadecimal digits, any case).', { min: 1 }),
        amount: amount('The USDC received.'),
      }),
    output: 'usdcIncomingView',
    errors: ['SANDBOX_ONLY', 'INVALID_AMOUNT'],
    run: ({ services, auth, audit, body }) => services.invoiceCollection.incoming(auth, audit, body),
    present: presentUsdcIncoming,
  }),
  list({
    name: 'listUsdcReceipts',
    summary: 'List unmatched USDC receipts',
    description:
      'USDC transfers that matched no open invoice (or not its exact amount), newest first: credited to nobody. The operator returns each on chain to its sender (docs/api.md "USDC").',
    access: 'organization',
    permission: 'invoices:read',
    http: { method: 'GET', path: '/v1/usdc-receipts', status: 200 },
    mcp: { tool: 'list_usdc_receipts', hints: HINTS.read },
    filters: () => ({
      status: z.optional(describe(z.enum(['UNMATCHED'] as const), 'Only receipts in this status (UNMATCHED).')),
    }),
    output: 'usdcReceiptPageView',
    errors: [],
    list: ({ services, auth, query }, page) => services.invoiceCollection.listReceipts(auth, query, page),
    present: presentUsdcReceipt,
  }),
  op({
    name: 'cancelInvoiceRecurring',
    summary: 'Cancel a recurring charge',
    description:
      'Stops the recurring charge started by this (first) invoice: no further charge runs (one already running completes). ACTIVE -> CANCELLED; not ACTIVE, or no schedule: INVALID_STATE.',
    access: 'key',
    permission: 'invoices:write',
    audit: AUDIT.invoice.cancelRecurring,
    http: { method: 'DELETE', path: '/v1/invoices/{id}/recurring', status: 200 },
    params: { id: 'The first invoice of the recurring charge (`inv_...`).' },
    mcp: { tool: 'cancel_recurring_charge', hints: HINTS.update },
    output: 'recurringScheduleView',
    errors: ['INVOICE_NOT_FOUND', 'INVALID_STATE', 'ENVIRONMENT_MISMATCH'],
    run: ({ services, auth, audit, params }) => services.invoiceCollection.cancelRecurring(auth, audit, params.id!),
    present: presentRecurringSchedule,
  }),
];
