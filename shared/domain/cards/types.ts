import type { Environment } from '../tenancy.js';

/**
 * Virtual cards (interface-spec 2.7, 3.6, 4.6; decisions.md section 5): a card is funded by one
 * wallet and spends under its own spending limits and the wallet's guardrails. Each authorization
 * the card network asks for is decided in real time and stored, approved (a ledger hold) or not.
 */
export const CARD_TYPES = ['PERSISTENT', 'SINGLE_USE'] as const;
export type CardType = (typeof CARD_TYPES)[number];

/** ACTIVE -freeze-> INACTIVE -unfreeze-> ACTIVE; any -cancel-> CANCELLED (card-states.ts). */
export const CARD_STATUSES = ['ACTIVE', 'INACTIVE', 'CANCELLED'] as const;
export type CardStatus = (typeof CARD_STATUSES)[number];

/** Calendar intervals in UTC (ISO weeks, from Monday); `per_authorization` bounds each authorization alone. */
export const SPENDING_INTERVALS = ['per_authorization', 'daily', 'weekly', 'monthly', 'yearly', 'all_time'] as const;
export type SpendingInterval = (typeof SPENDING_INTERVALS)[number];
/** The intervals counted on the card item (every approved authorization adds to each). */
export type CountedInterval = Exclude<SpendingInterval, 'per_authorization'>;
export const COUNTED_INTERVALS: readonly CountedInterval[] = ['daily', 'weekly', 'monthly', 'yearly', 'all_time'];

export interface SpendingLimit {
  /** Decimal string, 2 places. */
  amount: string;
  interval: SpendingInterval;
  /** Merchant categories this card may pay at all (an allow list), and which this limit counts. */
  categories?: string[];
}

export interface Card {
  id: string;
  organizationId: string;
  environment: Environment;
  walletId: string;
  cardholderId?: string;
  type: CardType;
  status: CardStatus;
  brand: 'visa';
  last4: string;
  expMonth: number;
  expYear: number;
  spendingLimits: SpendingLimit[];
  /** What the issuer keeps to give the details back (sandbox: number and CVC sealed); never shown. */
  secrets?: CardSecrets;
  /** Incremented by every change of status or limits; an authorization is conditioned on the version it decided on. */
  version: number;
  createdAt: string;
  updatedAt: string;
  cancelledAt?: string;
  idempotencyKey?: string;
  /** Read only (never written from here): the spend counters the card item carries. */
  counters?: CardSpendCounter[];
  /**
   * A single-use card's live authorization: set (only if absent) by the approval's own
   * transaction, removed by that authorization's reversal; a capture cancels the card.
   */
  usedBy?: string;
}

/** The spend of one interval, counted on the card item in the authorization's transaction. */
export interface CardSpendCounter {
  interval: CountedInterval;
  key: string;
  /** Decimal string. */
  spent: string;
}

/** The sandbox issuer's sealed values (shared/domain/sealing.ts), bound to `${cardId}#number` and `${cardId}#cvc`. */
export interface CardSecrets {
  numberSealed: string;
  cvcSealed: string;
}

/** The sensitive details of GET /v1/cards/:id/details; never stored in clear, logged, or put in an event. */
export interface CardDetails {
  number: string;
  cvc: string;
  expMonth: number;
  expYear: number;
}

export interface BillingAddress {
  line1: string;
  line2?: string;
  city: string;
  state: string;
  postalCode: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
}

export interface Cardholder {
  id: string;
  organizationId: string;
  environment: Environment;
  name: string;
  email?: string;
  phone?: string;
  billingAddress: BillingAddress;
  createdAt: string;
}

export interface Merchant {
  name: string;
  /** Merchant category: an MCC (4 digits) or a category name such as `computer_software_stores`. */
  category: string;
  /** ISO 3166-1 alpha-2. */
  country?: string;
}

/** APPROVED -capture-> CAPTURED, -reverse-> REVERSED; DECLINED is final from the start. */
export const AUTHORIZATION_STATUSES = ['APPROVED', 'DECLINED', 'CAPTURED', 'REVERSED'] as const;
export type AuthorizationStatus = (typeof AUTHORIZATION_STATUSES)[number];

/**
 * Why an authorization was declined (docs/api.md "Cards"), checked in this order: the card, the
 * wallet, the card's categories and limits, the wallet's spend policies, the funds.
 */
export const DECLINE_REASONS = [
  'card_cancelled',
  'card_expired',
  'card_inactive',
  'card_used',
  'wallet_closed',
  'wallet_frozen',
  'category_blocked',
  'spending_limit_exceeded',
  'policy_denied',
  'insufficient_funds',
] as const;
export type DeclineReason = (typeof DECLINE_REASONS)[number];

/** One counter of the card's spend: `spend#<interval>#<key>` on the card item. */
export interface IntervalKey {
  interval: CountedInterval;
  key: string;
}

export interface Authorization {
  id: string;
  organizationId: string;
  environment: Environment;
  cardId: string;
  walletId: string;
  /** Decimal strings, 2 places. */
  amount: string;
  capturedAmount: string;
  refundedAmount: string;
  status: AuthorizationStatus;
  reason?: DeclineReason;
  merchant: Merchant;
  /** Approved: the ledger hold; its capture or void settles it. */
  holdId?: string;
  /** Approved: the card counters it added to, given back when released (reversal, partial capture). */
  spendKeys?: IntervalKey[];
  /** Approved on a single-use card: it marked the card used (`Card.usedBy`); its reversal frees the card. */
  usesCard?: boolean;
  captureTransactionId?: string;
  createdAt: string;
  capturedAt?: string;
  reversedAt?: string;
  /**
   * Approved: when it is reversed automatically if neither captured nor reversed by then
   * (createdAt + AUTHORIZATION_EXPIRY_MS, sandbox divided by TIME_SCALE; authorization-engine.ts
   * `expireDue`). Kept after the capture or reversal; only an APPROVED one is on the expiry index.
   */
  expiresAt?: string;
  /** Reversed by its expiry (the sweep), not by a request: equal to `reversedAt`. */
  expiredAt?: string;
  idempotencyKey?: string;
}
