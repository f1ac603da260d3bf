import * as z from 'zod/mini';
import {
  describe,
  enumOf,
  environment,
  id,
  integer,
  lazy,
  money,
  nullableText,
  nullableTimestamp,
  objectTag,
  pageOf,
  record,
  text,
  timestamp,
  usd,
  view,
} from '../views.js';
import type { RecurringSchedule } from './collection-ports.js';
import { presentRecurringSchedule, recurringScheduleView } from './invoice-collection-view.js';
import { INVOICE_PAYMENT_METHOD_TYPES, INVOICE_STATUSES, type Invoice, type PendingInvoicePayment } from './types.js';

/** An invoice with the URLs built from its slug (the service adds them: config's public base URL). */
export type PresentableInvoice = Invoice & { hostedUrl: string | null; recurring?: RecurringSchedule };

/** A public invoice (by its slug): what the customer's pages show, with the merchant's and customer's names. */
export type PayableInvoice = Invoice & {
  hostedUrl: string;
  checkoutUrl: string;
  merchantName: string;
  customerName: string;
};

const STATUS_TEXT =
  'DRAFT (editable, not payable), FINALIZED (numbered, payable at `hostedUrl`), PAID, VOIDED (cancelled unpaid), UNCOLLECTIBLE (a recurring charge failed its retries) or REFUNDED (paid, then refunded: the wallet was debited the total).';

export const invoiceLineItemView = /* @__PURE__ */ lazy(() =>
  view(
    {
      description: text('What is billed (at most 1,024 characters).'),
      quantity: integer('How many, an integer from 1 to 10,000 (default 1).'),
      unitPrice: money('Price of one.'),
      amount: money('quantity x unitPrice, exact.'),
    },
    'One line of an invoice.',
    { description: 'API calls (October)', quantity: 3, unitPrice: '25.00', amount: '75.00' },
  ),
);

export const invoiceFeesView = /* @__PURE__ */ lazy(() =>
  view(
    {
      provider: money("The payment provider's fee (card 2.9% + 0.30; ACH 0.8%, at most 5.00; USDC 0.50; wallet 0)."),
      service: money("Allowance's service fee (card 0.5%; ACH 0.25%; USDC 0.5%; wallet 0.25%)."),
    },
    'The fees of a payment, each rounded half-up to the cent; the wallet receives the total minus both.',
    { provider: '2.48', service: '0.38' },
  ),
);

export const pendingInvoicePaymentView = /* @__PURE__ */ lazy(() =>
  view(
    {
      paymentMethodType: enumOf(['us_bank_account'] as const, 'A bank debit (ACH).'),
      brand: text("The bank's label."),
      last4: text('Last 4 digits of the account number.'),
      startedAt: timestamp('When the debit was accepted by the processor.'),
    },
    'A bank debit in flight: the invoice becomes PAID when the ACH rail settles it (or stays FINALIZED if it fails).',
    {
      paymentMethodType: 'us_bank_account',
      brand: 'STRIPE TEST BANK',
      last4: '6789',
      startedAt: '2026-11-27T10:00:00.000Z',
    },
  ),
);

export const invoiceView = /* @__PURE__ */ lazy(() =>
  view(
    {
      id: id('invoice', 'Invoice id.'),
      object: objectTag('invoice'),
      number: nullableText(
        'The invoice number (e.g. INV-000042), unique in the organization environment; null until finalized.',
      ),
      walletId: id('wallet', 'The wallet a payment credits.'),
      customerId: id('customer', 'The billed customer.'),
      status: enumOf(INVOICE_STATUSES, STATUS_TEXT),
      currency: usd(),
      lineItems: describe(z.array(invoiceLineItemView), 'The lines, in the order given.'),
      total: money('The sum of the lines, exact.'),
      amountPaid: money('What the customer paid: "0.00" until PAID, then the total.'),
      memo: z.optional(text('A note shown to the customer.')),
      dueDate: z.optional(text('When payment is due (ISO 8601), as given.')),
      metadata: z.optional(record('Your key-value data; never shown to the customer.')),
      slug: nullableText('The public identifier of the payment pages (>= 128 random bits); null until finalized.'),
      hostedUrl: nullableText("The customer's invoice page; null until finalized."),
      paymentMethodType: z.optional(
        enumOf(INVOICE_PAYMENT_METHOD_TYPES, 'How it was paid: card, us_bank_account, usdc or wallet.'),
      ),
      fees: z.optional(invoiceFeesView),
      netAmount: z.optional(money('What the wallet was credited: total - fees.provider - fees.service.')),
      pendingPayment: z.optional(pendingInvoicePaymentView),
      recurring: z.optional(recurringScheduleView),
      environment: environment(),
      createdAt: timestamp('When it was created.'),
      finalizedAt: z.optional(timestamp('When it was finalized.')),
      paidAt: z.optional(timestamp('When it was paid.')),
      voidedAt: z.optional(timestamp('When it was voided.')),
      refundedAt: z.optional(timestamp('When it was refunded.')),
    },
    'An invoice billed to a customer and paid into a wallet.',
    {
      id: 'inv_Tq8Lm2Zp4Rw9Xb1KLm2Zp4Rw',
      object: 'invoice',
      number: 'INV-000042',
      walletId: 'wal_7Qm2ZtLp9Rw4Xb1KcV8nYs3D',
      customerId: 'cus_4Rw9Xb1KLm2Zp4RwTq8Lm2Zp',
      status: 'PAID',
      currency: 'USD',
      lineItems: [
        { description: 'API calls (October)', quantity: 3, unitPrice: '25.00', amount: '75.00' },
        { description: 'Support', quantity: 1, unitPrice: '0.50', amount: '0.50' },
      ],
      total: '75.50',
      amountPaid: '75.50',
      memo: 'Thank you for your business.',
      dueDate: '2026-12-15',
      slug: 'G7kq2LmZp4Rw9Xb1KLm2Zp4R',
      hostedUrl: 'https://api.allowance.dev/hosted/invoices/G7kq2LmZp4Rw9Xb1KLm2Zp4R',
      paymentMethodType: 'card',
      fees: { provider: '2.49', service: '0.38' },
      netAmount: '72.63',
      environment: 'SANDBOX',
      createdAt: '2026-11-27T10:00:00.000Z',
      finalizedAt: '2026-11-27T10:01:00.000Z',
      paidAt: '2026-11-27T10:05:00.000Z',
    },
  ),
);

export const invoicePageView = /* @__PURE__ */ lazy(() => pageOf(invoiceView, 'A page of invoices.'));

export const invoiceCheckoutView = /* @__PURE__ */ lazy(() =>
  view(
    { url: text('The hosted checkout page (card or US bank account), to send to the customer.') },
    'Where the customer pays.',
    { url: 'https://api.allowance.dev/hosted/invoices/G7kq2LmZp4Rw9Xb1KLm2Zp4R/checkout' },
  ),
);

export const payableInvoiceView = /* @__PURE__ */ lazy(() =>
  view(
    {
      object: objectTag('payable_invoice'),
      number: text('The invoice number.'),
      merchantName: text('Who bills (the organization).'),
      customerName: text('Who is billed.'),
      status: enumOf(INVOICE_STATUSES, STATUS_TEXT),
      currency: usd(),
      lineItems: describe(z.array(invoiceLineItemView), 'The lines.'),
      total: money('What is due.'),
      amountPaid: money('What was paid.'),
      memo: z.optional(text('The note from the merchant.')),
      dueDate: z.optional(text('When payment is due (ISO 8601).')),
      paidAt: nullableTimestamp('When it was paid, or null.'),
      hostedUrl: text('The invoice page.'),
      checkoutUrl: text('The checkout page (card or US bank account).'),
      pendingPayment: z.optional(pendingInvoicePaymentView),
    },
    'An invoice as its customer sees it (by its slug, no key): never the wallet, the customer id or the metadata.',
    {
      object: 'payable_invoice',
      number: 'INV-000042',
      merchantName: 'Acme Robotics',
      customerName: 'Jane Doe',
      status: 'FINALIZED',
      currency: 'USD',
      lineItems: [{ description: 'API calls (October)', quantity: 3, unitPrice: '25.00', amount: '75.00' }],
      total: '75.00',
      amountPaid: '0.00',
      dueDate: '2026-12-15',
      paidAt: null,
      hostedUrl: 'https://api.allowance.dev/hosted/invoices/G7kq2LmZp4Rw9Xb1KLm2Zp4R',
      checkoutUrl: 'https://api.allowance.dev/hosted/invoices/G7kq2LmZp4Rw9Xb1KLm2Zp4R/checkout',
    },
  ),
);

const presentPending = (pending: PendingInvoicePayment | undefined) =>
  pending
    ? {
        pendingPayment: {
          paymentMethodType: pending.paymentMethodType,
          brand: pending.brand,
          last4: pending.last4,
          startedAt: pending.startedAt,
        },
      }
    : {};

/** Field by field: never the processor's charge id or the journal's ids. */
export function presentInvoice(invoice: PresentableInvoice): z.output<typeof invoiceView> {
  return {
    id: invoice.id,
    object: 'invoice',
    number: invoice.number,
    walletId: invoice.walletId,
    customerId: invoice.customerId,
    status: invoice.status,
    currency: 'USD',
    lineItems: invoice.lineItems.map((line) => ({ ...line })),
    total: invoice.total,
    amountPaid: invoice.amountPaid,
    ...(invoice.memo !== undefined ? { memo: invoice.memo } : {}),
    ...(invoice.dueDate !== undefined ? { dueDate: invoice.dueDate } : {}),
    ...(invoice.metadata !== undefined ? { metadata: invoice.metadata } : {}),
    slug: invoice.slug,
    hostedUrl: invoice.hostedUrl,
    ...(invoice.paymentMethodType ? { paymentMethodType: invoice.paymentMethodType } : {}),
    ...(invoice.fees ? { fees: { provider: invoice.fees.provider, service: invoice.fees.service } } : {}),
    ...(invoice.netAmount !== undefined ? { netAmount: invoice.netAmount } : {}),
    ...presentPending(invoice.pendingPayment),
    ...(invoice.recurring ? { recurring: presentRecurringSchedule(invoice.recurring) } : {}),
    environment: invoice.environment,
    createdAt: invoice.createdAt,
    ...(invoice.finalizedAt ? { finalizedAt: invoice.finalizedAt } : {}),
    ...(invoice.paidAt ? { paidAt: invoice.paidAt } : {}),
    ...(invoice.voidedAt ? { voidedAt: invoice.voidedAt } : {}),
    ...(invoice.refundedAt ? { refundedAt: invoice.refundedAt } : {}),
  };
}

/** The customer's view: no wallet, customer id, metadata, fees or ids. */
export function presentPayableInvoice(invoice: PayableInvoice): z.output<typeof payableInvoiceView> {
  return {
    object: 'payable_invoice',
    number: invoice.number ?? '',
    merchantName: invoice.merchantName,
    customerName: invoice.customerName,
    status: invoice.status,
    currency: 'USD',
    lineItems: invoice.lineItems.map((line) => ({ ...line })),
    total: invoice.total,
    amountPaid: invoice.amountPaid,
    ...(invoice.memo !== undefined ? { memo: invoice.memo } : {}),
    ...(invoice.dueDate !== undefined ? { dueDate: invoice.dueDate } : {}),
    paidAt: invoice.paidAt ?? null,
    hostedUrl: invoice.hostedUrl,
    checkoutUrl: invoice.checkoutUrl,
    ...presentPending(invoice.pendingPayment),
  };
}

export const presentInvoiceCheckout = (result: { url: string }): z.output<typeof invoiceCheckoutView> => ({
  url: result.url,
});
