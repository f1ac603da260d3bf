import * as z from 'zod/mini';
import {
  describe,
  enumOf,
  environment,
  flag,
  id,
  integer,
  lazy,
  nullableId,
  objectTag,
  pageOf,
  text,
  timestamp,
  view,
} from '../views.js';
import type { Customer, PaymentMethod } from './types.js';

const PAYMENT_METHOD_TYPES = ['card', 'us_bank_account'] as const;
const SESSION_KINDS = ['setup', 'update'] as const;
const SESSION_STATUSES = ['OPEN', 'COMPLETED', 'EXPIRED'] as const;

const optionalText = (description: string) => z.optional(text(description));
const metadataOf = (description: string) => z.optional(describe(z.record(z.string(), z.string()), description));

/** A customer of the organization (someone it bills). */
export const customerView = /* @__PURE__ */ lazy(() =>
  view(
    {
      id: id('customer', 'The customer id.'),
      object: objectTag('customer'),
      email: text('The email address as given; unique per organization and environment, compared case-insensitively.'),
      name: text("The customer's name."),
      phone: optionalText('Phone number as given; absent when none.'),
      companyName: optionalText('Company name; absent when none.'),
      metadata: metadataOf('Your key-value data; absent when none.'),
      walletId: nullableId(
        'wallet',
        "The wallet whose agent key created the customer (that wallet's agent keys see it); null for a customer created with an organization key.",
      ),
      defaultPaymentMethodId: nullableId(
        'paymentMethod',
        'The payment method charges use when none is named; null until a method is saved.',
      ),
      environment: environment(),
      createdAt: timestamp('When it was created.'),
      updatedAt: timestamp('When it last changed.'),
    },
    'A customer: someone the organization bills.',
    {
      id: 'cus_Tq8Lm2Zp4Rw9Xb1KLm2Zp4Rw',
      object: 'customer',
      email: 'ada@example.com',
      name: 'Ada Lovelace',
      phone: '+1 415 555 0100',
      companyName: 'Analytical Engines Ltd',
      metadata: { crmId: '8812' },
      walletId: null,
      defaultPaymentMethodId: 'pm_Zp4Rw9Xb1KLm2Zp4RwTq8Lm2',
      environment: 'SANDBOX',
      createdAt: '2026-11-27T10:00:00.000Z',
      updatedAt: '2026-11-27T10:00:00.000Z',
    },
  ),
);

export const customerPageView = /* @__PURE__ */ lazy(() => pageOf(customerView, 'A page of customers.'));

/** A saved payment method: brand and last 4 digits only, never the number. */
export const paymentMethodView = /* @__PURE__ */ lazy(() =>
  view(
    {
      id: id('paymentMethod', 'The payment method id.'),
      object: objectTag('payment_method'),
      customerId: id('customer', 'The customer it belongs to.'),
      walletId: nullableId('wallet', "The customer's wallet (see the customer's walletId), or null."),
      type: enumOf(PAYMENT_METHOD_TYPES, 'card or us_bank_account.'),
      brand: text(
        'Cards: visa, mastercard, amex, discover or unknown. Bank accounts: the bank\'s label (sandbox: "Sandbox Bank").',
      ),
      last4: text('The last 4 digits of the card or account number; the full number is stored encrypted, never shown.'),
      expMonth: z.optional(integer('Cards: expiry month, 1-12.')),
      expYear: z.optional(integer('Cards: expiry year, four digits.')),
      isDefault: flag("Whether it is the customer's default method."),
      environment: environment(),
      createdAt: timestamp('When it was saved.'),
    },
    "A customer's saved payment method (card or US bank account), shown as brand and last 4 digits.",
    {
      id: 'pm_Zp4Rw9Xb1KLm2Zp4RwTq8Lm2',
      object: 'payment_method',
      customerId: 'cus_Tq8Lm2Zp4Rw9Xb1KLm2Zp4Rw',
      walletId: null,
      type: 'card',
      brand: 'visa',
      last4: '4242',
      expMonth: 12,
      expYear: 2030,
      isDefault: true,
      environment: 'SANDBOX',
      createdAt: '2026-11-27T10:05:00.000Z',
    },
  ),
);

export const paymentMethodPageView = /* @__PURE__ */ lazy(() =>
  pageOf(paymentMethodView, "A page of a customer's payment methods."),
);

/** A setup or update link to send the customer. */
export const paymentMethodLinkView = /* @__PURE__ */ lazy(() =>
  view(
    {
      url: text(
        'The hosted page where the customer enters a card or bank account. Single use; send it only to the customer.',
      ),
      expiresAt: timestamp('When the link stops working (24 hours after it was made).'),
    },
    'A single-use link to a hosted payment-method page.',
    {
      url: 'https://api.example.com/hosted/payment-methods/8Qm2ZpX4Rw9Xb1KLm2Zp4RwTq8Lm2Zp',
      expiresAt: '2026-11-28T10:00:00.000Z',
    },
  ),
);

/** What the hosted page shows about its session (public: no ids, no metadata). */
export const paymentMethodSessionView = /* @__PURE__ */ lazy(() =>
  view(
    {
      kind: enumOf(SESSION_KINDS, 'setup (add a method) or update (replace the default method).'),
      status: enumOf(SESSION_STATUSES, 'OPEN (usable), COMPLETED (used) or EXPIRED.'),
      merchantName: text('The name of the organization asking for the method.'),
      customerName: text("The customer's name."),
      currentMethod: z.optional(
        describe(
          z.object({
            type: enumOf(PAYMENT_METHOD_TYPES, 'card or us_bank_account.'),
            brand: text('Brand or bank label.'),
            last4: text('Last 4 digits.'),
          }),
          'Update links: the method being replaced.',
        ),
      ),
      expiresAt: timestamp('When the link stops working.'),
      environment: environment(),
    },
    'A payment-method setup or update link, as its hosted page shows it.',
    {
      kind: 'setup',
      status: 'OPEN',
      merchantName: 'Acme Inc',
      customerName: 'Ada Lovelace',
      expiresAt: '2026-11-28T10:00:00.000Z',
      environment: 'SANDBOX',
    },
  ),
);

/** Field by field, so nothing internal (email key, counters) reaches an answer or an event. */
export function presentCustomer(customer: Customer): z.output<typeof customerView> {
  return {
    id: customer.id,
    object: 'customer',
    email: customer.email,
    name: customer.name,
    ...(customer.phone !== undefined ? { phone: customer.phone } : {}),
    ...(customer.companyName !== undefined ? { companyName: customer.companyName } : {}),
    ...(customer.metadata !== undefined ? { metadata: customer.metadata } : {}),
    walletId: customer.walletId,
    defaultPaymentMethodId: customer.defaultPaymentMethodId,
    environment: customer.environment,
    createdAt: customer.createdAt,
    updatedAt: customer.updatedAt,
  };
}

/** Never the sealed number nor the processor's token. */
export function presentPaymentMethod(
  method: PaymentMethod & { isDefault: boolean },
): z.output<typeof paymentMethodView> {
  return {
    id: method.id,
    object: 'payment_method',
    customerId: method.customerId,
    walletId: method.walletId,
    type: method.type,
    brand: method.brand,
    last4: method.last4,
    ...(method.expMonth !== undefined ? { expMonth: method.expMonth } : {}),
    ...(method.expYear !== undefined ? { expYear: method.expYear } : {}),
    isDefault: method.isDefault,
    environment: method.environment,
    createdAt: method.createdAt,
  };
}

export type PaymentMethodSessionView = z.output<typeof paymentMethodSessionView>;
