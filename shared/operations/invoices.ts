import * as z from 'zod/mini';
import { AUDIT } from '../domain/audit/actions.js';
import type { InvoiceService } from '../domain/invoices/invoice-service.js';
import { MAX_LINE_DESCRIPTION, MAX_LINE_ITEMS, MAX_LINE_QUANTITY } from '../domain/invoices/invoice-rules.js';
import { presentInvoice, presentInvoiceCheckout, presentPayableInvoice } from '../domain/invoices/invoice-view.js';
import { INVOICE_STATUSES } from '../domain/invoices/types.js';
import { HINTS, defineGroup, operation } from './define.js';
import { amount, describe, idempotencyKey, paymentDescription, text, walletId } from './fields.js';
import { invoiceFields } from './invoice-fields.js';
import { paymentMethodInput } from './payment-method-fields.js';
import {
  INVOICE_COLLECTION_OPERATIONS,
  recurringField,
  type InvoiceCollectionServices,
} from './invoice-collection-operations.js';
import { listOperation } from './list.js';

export interface InvoicesServices extends InvoiceCollectionServices {
  invoices: InvoiceService;
}

const op = operation<InvoicesServices>();
const list = listOperation<InvoicesServices>();
const invoiceParam = { id: 'The invoice id (`inv_...`).' };
const slugParam = { slug: "The invoice's public slug (from its `hostedUrl`)." };

/**
 * Invoices (interface-spec 4.9, decisions.md section 6, docs/api.md "Invoices"). Reading needs
 * `invoices:read`, everything else `invoices:write`; an agent key works with its own wallet's
 * invoices only. The `pay/{slug}` operations are public (no key, rate limited per IP): the hosted
 * pages call them.
 */
// Recurring charges, retries and bank debits schedule their next step (one-time expiry schedules).
export const INVOICES = defineGroup<InvoicesServices>()('invoices', { grants: ['scheduler:create'] }, [
  op({
    name: 'createInvoice',
    summary: 'Create an invoice',
    description: `Creates a DRAFT invoice to a customer, paid into a wallet (ACTIVE, USD; an agent key: its own). ${MAX_LINE_ITEMS} line items at most, each with a description, an integer quantity (1 to ${MAX_LINE_QUANTITY}, default 1) and an exact unitPrice; the total is their exact sum, from 1.00 (so that fees never take the whole payment) to 1,000,000,000.00. Finalize it to number it and get its hosted page.`,
    access: 'key',
    permission: 'invoices:write',
    audit: AUDIT.invoice.create,
    events: ['invoice.created'],
    http: { method: 'POST', path: '/v1/invoices', status: 201 },
    mcp: { tool: 'create_invoice', hints: HINTS.create },
    body: () =>
      z.strictObject({
        walletId: walletId('The wallet a payment credits.'),
        customerId: text(128, 'The customer billed (`cus_...`).', { min: 1 }),
        lineItems: describe(
          z
            .array(
              z.strictObject({
                description: text(MAX_LINE_DESCRIPTION, 'What is billed.', { min: 1, multiline: true }),
                quantity: z.optional(describe(z.int(), `How many, 1 to ${MAX_LINE_QUANTITY} (default 1).`)),
                unitPrice: amount('Price of one, > 0.'),
              }),
            )
            .check(
              z.minLength(1, 'must hold at least 1 line item'),
              z.maxLength(MAX_LINE_ITEMS, `must hold at most ${MAX_LINE_ITEMS} line items`),
            ),
          'The lines of the invoice, in order.',
        ),
        ...invoiceFields(),
      }),
    output: 'invoiceView',
    errors: ['WALLET_NOT_FOUND', 'WALLET_FROZEN', 'CUSTOMER_NOT_FOUND', 'INVALID_AMOUNT', 'ENVIRONMENT_MISMATCH'],
    run: ({ services, auth, audit, body }) =>
      services.invoices.create(auth, audit, body).then((invoice) => ({ ...invoice, hostedUrl: null })),
    present: presentInvoice,
  }),
  list({
    name: 'listInvoices',
    summary: 'List invoices',
    description:
      "Invoices of the organization environment, newest first; filter by wallet, customer and status. An agent key lists its own wallet's invoices only.",
    access: 'key',
    permission: 'invoices:read',
    http: { method: 'GET', path: '/v1/invoices', status: 200 },
    mcp: { tool: 'list_invoices', hints: HINTS.read },
    filters: () => ({
      walletId: z.optional(walletId('Only invoices paying into this wallet.')),
      customerId: z.optional(text(128, 'Only invoices of this customer.', { min: 1 })),
      status: z.optional(describe(z.enum(INVOICE_STATUSES), 'Only invoices in this status.')),
    }),
    output: 'invoicePageView',
    errors: ['WALLET_NOT_FOUND', 'ENVIRONMENT_MISMATCH'],
    list: ({ services, auth, query }, page) => services.invoices.list(auth, query, page),
    present: presentInvoice,
  }),
  op({
    name: 'getInvoice',
    summary: 'Get an invoice',
    description: 'One invoice: its lines, total, status, and once paid how, the fees and the net credited.',
    access: 'key',
    permission: 'invoices:read',
    http: { method: 'GET', path: '/v1/invoices/{id}', status: 200 },
    params: invoiceParam,
    mcp: { tool: 'get_invoice', hints: HINTS.read },
    output: 'invoiceView',
    errors: ['INVOICE_NOT_FOUND', 'ENVIRONMENT_MISMATCH'],
    run: async ({ services, auth, params }) => {
      const invoice = await services.invoices.get(auth, params.id!);
      const recurring = await services.invoiceCollection.recurringOf(invoice.id);
      return recurring ? { ...invoice, recurring } : invoice;
    },
    present: presentInvoice,
  }),
  op({
    name: 'finalizeInvoice',
    summary: 'Finalize an invoice',
    description:
      'DRAFT -> FINALIZED: numbers the invoice (INV-000001, ... per organization and environment), generates its public slug and `hostedUrl` (the page where the customer pays). Any other state: INVALID_STATE.',
    access: 'key',
    permission: 'invoices:write',
    audit: AUDIT.invoice.finalize,
    events: ['invoice.finalized'],
    http: { method: 'POST', path: '/v1/invoices/{id}/finalize', status: 200 },
    params: invoiceParam,
    mcp: { tool: 'finalize_invoice', hints: HINTS.update },
    output: 'invoiceView',
    errors: ['INVOICE_NOT_FOUND', 'INVALID_STATE', 'ENVIRONMENT_MISMATCH'],
    run: ({ services, auth, audit, params }) => services.invoices.finalize(auth, audit, params.id!),
    present: presentInvoice,
  }),
  op({
    name: 'createInvoiceCheckout',
    summary: 'Get the checkout URL of an invoice',
    description:
      'The hosted checkout page of a FINALIZED invoice, where the customer pays by card or US bank account. Other states: INVALID_STATE.',
    access: 'key',
    permission: 'invoices:write',
    audit: AUDIT.invoice.checkout,
    http: { method: 'POST', path: '/v1/invoices/{id}/checkout', status: 200 },
    params: invoiceParam,
    mcp: { tool: 'get_invoice_checkout_url', hints: HINTS.update },
    output: 'invoiceCheckoutView',
    errors: ['INVOICE_NOT_FOUND', 'INVALID_STATE', 'ENVIRONMENT_MISMATCH'],
    run: ({ services, auth, audit, params }) => services.invoices.checkout(auth, audit, params.id!),
    present: presentInvoiceCheckout,
  }),
  op({
    name: 'voidInvoice',
    summary: 'Void an invoice',
    description:
      'FINALIZED -> VOIDED: cancels an unpaid invoice (not while a bank debit of it is in flight). A paid, draft or voided invoice: INVALID_STATE.',
    access: 'key',
    permission: 'invoices:write',
    audit: AUDIT.invoice.void,
    events: ['invoice.voided'],
    http: { method: 'POST', path: '/v1/invoices/{id}/void', status: 200 },
    params: invoiceParam,
    mcp: { tool: 'void_invoice', hints: HINTS.destructive },
    output: 'invoiceView',
    errors: ['INVOICE_NOT_FOUND', 'INVALID_STATE', 'ENVIRONMENT_MISMATCH'],
    run: ({ services, auth, audit, params }) => services.invoices.void(auth, audit, params.id!),
    present: presentInvoice,
  }),
  op({
    name: 'refundInvoice',
    summary: 'Refund an invoice',
    description:
      "PAID -> REFUNDED: the wallet is debited the invoice's full total (the fees are not returned) and the customer's payment is returned to their method. The wallet short of the total: INSUFFICIENT_FUNDS; frozen: WALLET_FROZEN; not PAID: INVALID_STATE.",
    access: 'key',
    permission: 'invoices:write',
    audit: AUDIT.invoice.refund,
    events: ['invoice.refunded'],
    http: { method: 'POST', path: '/v1/invoices/{id}/refund', status: 200 },
    params: invoiceParam,
    mcp: { tool: 'refund_invoice', hints: HINTS.money },
    output: 'invoiceView',
    errors: ['INVOICE_NOT_FOUND', 'INVALID_STATE', 'INSUFFICIENT_FUNDS', 'WALLET_FROZEN', 'ENVIRONMENT_MISMATCH'],
    run: ({ services, auth, audit, params }) => services.invoices.refund(auth, audit, params.id!),
    present: presentInvoice,
  }),
  op({
    name: 'chargeCustomer',
    summary: 'Charge a customer',
    description:
      "Creates an invoice of one line (`description`, `amount`), finalizes it and charges the customer's default saved payment method (or `paymentMethodId`). A card answers the invoice PAID; a bank account FINALIZED with `pendingPayment` (PAID when the ACH debit settles). A decline: 402 PAYMENT_DECLINED with details {invoiceId, declineCode}, the invoice left FINALIZED. With an idempotency key the same request answers the first answer again (a decline included).",
    access: 'key',
    permission: 'invoices:write',
    audit: AUDIT.invoice.charge,
    idempotency: 'key',
    events: ['invoice.created', 'invoice.finalized', 'invoice.paid', 'invoice.payment_failed'],
    http: { method: 'POST', path: '/v1/invoices/charge', status: 201 },
    mcp: { tool: 'charge_customer', hints: HINTS.money },
    body: () =>
      z.strictObject({
        walletId: walletId('The wallet the payment credits (ACTIVE, USD; an agent key: its own).'),
        customerId: text(128, 'The customer charged (`cus_...`).', { min: 1 }),
        amount: amount('The amount charged, from 1.00.'),
        description: paymentDescription('What is charged for (the invoice line).'),
        paymentMethodId: z.optional(
          text(128, "A saved method of the customer (`pm_...`); default: the customer's default method.", { min: 1 }),
        ),
        recurring: recurringField(),
        idempotencyKey: idempotencyKey(),
      }),
    output: 'invoiceView',
    errors: [
      'WALLET_NOT_FOUND',
      'WALLET_FROZEN',
      'CUSTOMER_NOT_FOUND',
      'PAYMENT_METHOD_NOT_FOUND',
      'PAYMENT_DECLINED',
      'INVALID_AMOUNT',
      'IDEMPOTENCY_KEY_REUSE',
      'IDEMPOTENCY_KEY_IN_USE',
      'ENVIRONMENT_MISMATCH',
    ],
    run: ({ services, auth, audit, body, idempotencyKey: key }) =>
      services.invoiceCollection.chargeCollected(body.recurring, body.paymentMethodId, () =>
        services.invoices.charge(
          auth,
          audit,
          {
            walletId: body.walletId,
            customerId: body.customerId,
            amount: body.amount,
            description: body.description,
            paymentMethodId: body.paymentMethodId,
          },
          key,
        ),
      ),
  }),
  op({
    name: 'getPayableInvoice',
    summary: 'Get an invoice to pay (public)',
    description:
      'A finalized invoice as its customer sees it, by its public slug, without a key: number, merchant and customer names, lines, total, status, URLs. Never the wallet, the customer id or the metadata.',
    access: 'public',
    http: { method: 'GET', path: '/v1/invoices/pay/{slug}', status: 200 },
    params: slugParam,
    output: 'payableInvoiceView',
    errors: ['INVOICE_NOT_FOUND'],
    run: ({ services, params }) => services.invoices.getPayable(params.slug!),
    present: presentPayableInvoice,
  }),
  op({
    name: 'createPayableInvoiceCheckout',
    summary: 'Get the checkout URL of an invoice (public)',
    description: 'The hosted checkout page of a FINALIZED invoice, by its public slug. Other states: INVALID_STATE.',
    access: 'public',
    audit: AUDIT.invoice.checkout,
    http: { method: 'POST', path: '/v1/invoices/pay/{slug}/checkout', status: 200 },
    params: slugParam,
    output: 'invoiceCheckoutView',
    errors: ['INVOICE_NOT_FOUND', 'INVALID_STATE'],
    run: ({ services, auth, audit, params }) => services.invoices.checkoutBySlug(auth, audit, params.slug!),
    present: presentInvoiceCheckout,
  }),
  op({
    name: 'payInvoice',
    summary: 'Pay an invoice (public)',
    description:
      "The checkout page's submit: pays a FINALIZED invoice by card (PAID at once) or US bank account (accepted: `pendingPayment`, PAID when the ACH debit settles). Sandbox cards: 4242424242424242 succeeds, 4000000000000002 declines (card_declined), 4000000000009995 declines (insufficient_funds). A decline: 402 PAYMENT_DECLINED with details.declineCode, the invoice stays FINALIZED. Numbers are never stored or logged.",
    access: 'public',
    audit: AUDIT.invoice.pay,
    events: ['invoice.paid', 'invoice.payment_failed'],
    http: { method: 'POST', path: '/v1/invoices/pay/{slug}/payments', status: 200 },
    params: slugParam,
    body: paymentMethodInput,
    output: 'payableInvoiceView',
    errors: ['INVOICE_NOT_FOUND', 'INVALID_STATE', 'PAYMENT_DECLINED'],
    run: ({ services, auth, audit, params, body }) => services.invoices.payBySlug(auth, audit, params.slug!, body),
    present: presentPayableInvoice,
  }),
  ...INVOICE_COLLECTION_OPERATIONS,
]);
