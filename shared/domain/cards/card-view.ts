import Big from 'big.js';
import * as z from 'zod/mini';
import { formatAmount } from '../money.js';
import {
  describe,
  enumOf,
  environment,
  id,
  integer,
  lazy,
  money,
  nullableId,
  nullableText,
  nullableTimestamp,
  objectTag,
  pageOf,
  text,
  timestamp,
  view,
} from '../views.js';
import {
  AUTHORIZATION_STATUSES,
  CARD_STATUSES,
  CARD_TYPES,
  DECLINE_REASONS,
  SPENDING_INTERVALS,
  type Authorization,
  type Card,
  type CardDetails,
  type Cardholder,
  type SpendingLimit,
} from './types.js';

const CARD_ID = 'card_Vq3Lm8Zt2Rw9Xb1KcP4nYs7D';
const WALLET_ID = 'wal_xZTRJjUn1z5KLKFL2fXHmE5h';
const CARDHOLDER_ID = 'crh_Tq8Lm2Zp4Rw9Xb1KLm2Zp4Rw';
const AUTHORIZATION_ID = 'auth_9fQw2LmZr4Tb8Ks1Xc7Vn3Qa';

export const spendingLimitView = /* @__PURE__ */ lazy(() =>
  view(
    {
      amount: money('The most the card may spend in the interval (per authorization for `per_authorization`).'),
      interval: enumOf(
        SPENDING_INTERVALS,
        'per_authorization, or a calendar interval in UTC: daily, weekly (ISO weeks, from Monday), monthly, yearly, all_time.',
      ),
      categories: z.optional(
        describe(
          z.array(z.string()),
          'Merchant categories (MCC codes or category names, lower-case). When given, the card pays only merchants in these categories (others are declined `category_blocked`).',
        ),
      ),
    },
    'A spending limit of a card.',
    { amount: '500.00', interval: 'daily' },
  ),
);

export const cardView = /* @__PURE__ */ lazy(() =>
  view(
    {
      id: id('card', 'Card id.'),
      object: objectTag('card'),
      walletId: id('wallet', 'The wallet that funds the card.'),
      cardholderId: nullableId('cardholder', 'The cardholder named on the card, or null.'),
      type: enumOf(
        CARD_TYPES,
        'PERSISTENT (any number of authorizations) or SINGLE_USE (cancelled automatically after its first capture).',
      ),
      status: enumOf(
        CARD_STATUSES,
        'ACTIVE, INACTIVE (frozen: every authorization is declined) or CANCELLED (permanent).',
      ),
      brand: enumOf(['visa'], 'Card network brand.'),
      last4: text(
        'Last 4 digits of the card number. The full number and the CVC are only in GET /v1/cards/{id}/details.',
      ),
      spendingLimits: describe(z.array(spendingLimitView), "The card's spending limits; every one applies."),
      environment: environment(),
      createdAt: timestamp('When the card was issued.'),
      cancelledAt: nullableTimestamp('When the card was cancelled, or null.'),
    },
    'A virtual card (metadata only: never the full number or the CVC).',
    {
      id: CARD_ID,
      object: 'card',
      walletId: WALLET_ID,
      cardholderId: CARDHOLDER_ID,
      type: 'PERSISTENT',
      status: 'ACTIVE',
      brand: 'visa',
      last4: '4242',
      spendingLimits: [
        { amount: '100.00', interval: 'per_authorization' },
        { amount: '500.00', interval: 'daily', categories: ['5734', 'computer_software_stores'] },
      ],
      environment: 'SANDBOX',
      createdAt: '2026-03-14T10:02:11.412Z',
      cancelledAt: null,
    },
  ),
);
export type CardView = z.infer<typeof cardView>;
export const cardPageView = /* @__PURE__ */ lazy(() => pageOf(cardView, 'A page of cards, newest first.'));

export const cardDetailsView = /* @__PURE__ */ lazy(() =>
  view(
    {
      id: id('card', 'Card id.'),
      object: objectTag('card_details'),
      number: text(
        'The full card number (16 digits). Handle as cardholder data (PCI DSS): never log it or store it in clear.',
      ),
      cvc: text('The card verification code (3 digits). Never store it.'),
      expMonth: integer('Expiry month, 1-12.'),
      expYear: integer('Expiry year, four digits.'),
    },
    'The sensitive details of a card. Every read is recorded in the audit log (card.details.viewed).',
    { id: CARD_ID, object: 'card_details', number: '4000001234567899', cvc: '123', expMonth: 3, expYear: 2029 },
  ),
);
export type CardDetailsView = z.infer<typeof cardDetailsView>;

export const billingAddressView = /* @__PURE__ */ lazy(() =>
  view(
    {
      line1: text('Street address.'),
      line2: nullableText('Apartment, suite or floor, or null.'),
      city: text('City.'),
      state: text('State, province or region.'),
      postalCode: text('Postal code.'),
      country: text('Country, ISO 3166-1 alpha-2 (e.g. US).'),
    },
    'A billing address.',
    { line1: '1 Market St', line2: null, city: 'San Francisco', state: 'CA', postalCode: '94105', country: 'US' },
  ),
);

export const cardholderView = /* @__PURE__ */ lazy(() =>
  view(
    {
      id: id('cardholder', 'Cardholder id.'),
      object: objectTag('cardholder'),
      name: text("The cardholder's name."),
      email: nullableText('Email address, or null.'),
      phone: nullableText('Phone number, or null.'),
      billingAddress: billingAddressView,
      createdAt: timestamp('When the cardholder was created.'),
    },
    'A cardholder: the person or business named on cards.',
    {
      id: CARDHOLDER_ID,
      object: 'cardholder',
      name: 'Acme Research',
      email: 'cards@acme.example',
      phone: null,
      billingAddress: {
        line1: '1 Market St',
        line2: null,
        city: 'San Francisco',
        state: 'CA',
        postalCode: '94105',
        country: 'US',
      },
      createdAt: '2026-03-14T10:00:00.000Z',
    },
  ),
);
export type CardholderView = z.infer<typeof cardholderView>;
export const cardholderPageView = /* @__PURE__ */ lazy(() =>
  pageOf(cardholderView, 'A page of cardholders, newest first.'),
);

export const cardMerchantView = /* @__PURE__ */ lazy(() =>
  view(
    {
      name: text('Merchant name as the network sent it.'),
      category: text('Merchant category (MCC code or category name), lower-case.'),
      country: nullableText('Merchant country (ISO 3166-1 alpha-2), or null.'),
    },
    'The merchant of an authorization.',
    { name: 'OpenAI', category: '5734', country: 'US' },
  ),
);

export const authorizationView = /* @__PURE__ */ lazy(() =>
  view(
    {
      id: id('authorization', 'Authorization id.'),
      object: objectTag('card_authorization'),
      cardId: id('card', 'The card.'),
      walletId: id('wallet', 'The wallet that funds the card.'),
      amount: money('Amount the merchant asked for.'),
      capturedAmount: money(
        'Amount captured so far (0.00 until captured; a capture may take less than the amount, the rest is released).',
      ),
      refundedAmount: money('Amount refunded to the wallet so far (at most the captured amount).'),
      status: enumOf(
        AUTHORIZATION_STATUSES,
        'APPROVED (the amount is held on the wallet), DECLINED (see `reason`; no money moved), CAPTURED (paid) or REVERSED (released).',
      ),
      reason: describe(
        z.nullable(z.enum(DECLINE_REASONS)),
        'Why it was declined (docs/api.md "Cards: decline reasons"); null unless DECLINED.',
      ),
      merchant: cardMerchantView,
      createdAt: timestamp('When the network asked.'),
      capturedAt: nullableTimestamp('When it was captured, or null.'),
      reversedAt: nullableTimestamp('When it was reversed, or null.'),
      expiresAt: nullableTimestamp(
        'Approved: when it is reversed automatically unless captured or reversed before (7 days after `createdAt`; sandbox: divided by TIME_SCALE). Kept once captured or reversed; null for a declined one.',
      ),
      expiredAt: nullableTimestamp(
        'When it was reversed because it expired uncaptured (then equal to `reversedAt`), or null.',
      ),
    },
    "A card authorization: the card network's real-time request to pay a merchant, and the decision.",
    {
      id: AUTHORIZATION_ID,
      object: 'card_authorization',
      cardId: CARD_ID,
      walletId: WALLET_ID,
      amount: '42.00',
      capturedAmount: '40.00',
      refundedAmount: '0.00',
      status: 'CAPTURED',
      reason: null,
      merchant: { name: 'OpenAI', category: '5734', country: 'US' },
      createdAt: '2026-03-14T10:02:11.412Z',
      capturedAt: '2026-03-14T10:05:00.000Z',
      reversedAt: null,
      expiresAt: '2026-03-21T10:02:11.412Z',
      expiredAt: null,
    },
  ),
);
export type AuthorizationView = z.infer<typeof authorizationView>;
export const authorizationPageView = /* @__PURE__ */ lazy(() =>
  pageOf(authorizationView, "A page of a card's authorizations, newest first."),
);

export const cardRefundView = /* @__PURE__ */ lazy(() =>
  view(
    {
      id: id('transaction', "The refund's ledger transaction."),
      object: objectTag('card_refund'),
      authorizationId: id('authorization', 'The captured authorization refunded.'),
      cardId: id('card', 'The card.'),
      walletId: id('wallet', 'The wallet credited.'),
      amount: money('Amount credited to the wallet.'),
      createdAt: timestamp('When the refund was made.'),
    },
    "A merchant's refund of a captured card authorization, credited to the card's wallet.",
    {
      id: 'txn_9fQw2LmZr4Tb8Ks1Xc7Vn3Qb',
      object: 'card_refund',
      authorizationId: AUTHORIZATION_ID,
      cardId: CARD_ID,
      walletId: WALLET_ID,
      amount: '10.00',
      createdAt: '2026-03-15T09:00:00.000Z',
    },
  ),
);
export type CardRefundView = z.infer<typeof cardRefundView>;

const presentLimit = (limit: SpendingLimit): CardView['spendingLimits'][number] => ({
  amount: limit.amount,
  interval: limit.interval,
  ...(limit.categories ? { categories: limit.categories } : {}),
});

/** The wire shape of a card: never the number, the CVC, the expiry or anything sealed. */
export function presentCard(card: Card): CardView {
  return {
    id: card.id,
    object: 'card',
    walletId: card.walletId,
    cardholderId: card.cardholderId ?? null,
    type: card.type,
    status: card.status,
    brand: card.brand,
    last4: card.last4,
    spendingLimits: card.spendingLimits.map(presentLimit),
    environment: card.environment,
    createdAt: card.createdAt,
    cancelledAt: card.cancelledAt ?? null,
  };
}

export function presentCardDetails(cardId: string, details: CardDetails): CardDetailsView {
  return {
    id: cardId,
    object: 'card_details',
    number: details.number,
    cvc: details.cvc,
    expMonth: details.expMonth,
    expYear: details.expYear,
  };
}

export function presentCardholder(cardholder: Cardholder): CardholderView {
  const address = cardholder.billingAddress;
  return {
    id: cardholder.id,
    object: 'cardholder',
    name: cardholder.name,
    email: cardholder.email ?? null,
    phone: cardholder.phone ?? null,
    billingAddress: {
      line1: address.line1,
      line2: address.line2 ?? null,
      city: address.city,
      state: address.state,
      postalCode: address.postalCode,
      country: address.country,
    },
    createdAt: cardholder.createdAt,
  };
}

export function presentAuthorization(auth: Authorization): AuthorizationView {
  return {
    id: auth.id,
    object: 'card_authorization',
    cardId: auth.cardId,
    walletId: auth.walletId,
    amount: formatAmount(new Big(auth.amount)),
    capturedAmount: formatAmount(new Big(auth.capturedAmount)),
    refundedAmount: formatAmount(new Big(auth.refundedAmount)),
    status: auth.status,
    reason: auth.reason ?? null,
    merchant: { name: auth.merchant.name, category: auth.merchant.category, country: auth.merchant.country ?? null },
    createdAt: auth.createdAt,
    capturedAt: auth.capturedAt ?? null,
    reversedAt: auth.reversedAt ?? null,
    expiresAt: auth.expiresAt ?? null,
    expiredAt: auth.expiredAt ?? null,
  };
}
