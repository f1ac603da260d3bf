import { everyOf } from '../enums.js';
import type { Environment } from '../tenancy.js';

/**
 * Payment links pay OUT (interface-spec 2.9 and 3.4, decisions.md section 6): the link's wallet
 * funds it. Creation holds the amount plus the fee an external claim costs; a claim sends the
 * amount to the claimant's wallet (at once), bank account or USDC address (through the transfer
 * workflow); cancel and expiry release the hold.
 */
export type PaymentLinkStatus = 'PENDING_APPROVAL' | 'ACTIVE' | 'CLAIMED' | 'SETTLED' | 'EXPIRED' | 'CANCELLED';
export const PAYMENT_LINK_STATUSES = everyOf<PaymentLinkStatus>()([
  'PENDING_APPROVAL',
  'ACTIVE',
  'CLAIMED',
  'SETTLED',
  'EXPIRED',
  'CANCELLED',
]);

/** What a link says it pays (interface-spec 4.8: default USD); either is held 1:1 on the wallet's USD balance. */
export type PaymentLinkCurrency = 'USD' | 'USDC';
export const PAYMENT_LINK_CURRENCIES = everyOf<PaymentLinkCurrency>()(['USD', 'USDC']);

export type ClaimMethod = 'wallet' | 'ach' | 'usdc';
export const CLAIM_METHODS = everyOf<ClaimMethod>()(['wallet', 'ach', 'usdc']);

export interface RecipientRestrictions {
  /** Lower-cased, deduplicated. */
  emails: string[];
  walletIds: string[];
}

/** Where a claim sent the money, as stored: never a full account number (last 4 only; the transfer keeps it sealed). */
export type ClaimDestination =
  | { type: 'WALLET'; walletId: string }
  | { type: 'ACH'; routingNumber: string; last4: string; accountName?: string }
  | { type: 'USDC'; address: string; chain: string };

export interface PaymentLinkClaim {
  method: ClaimMethod;
  destination: ClaimDestination;
  /** The email the claimant gave (restricted links), lower-cased. */
  recipientEmail?: string;
  /** ach and usdc: the withdrawal-like transfer that carries the money (`tr_...`). */
  transferId?: string;
  claimedAt: string;
}

export interface PaymentLink {
  id: string;
  organizationId: string;
  environment: Environment;
  /** The wallet that funds the link (its hold). */
  walletId: string;
  /** Public: >= 128 random bits, base62 (claim routes and the hosted page). */
  slug: string;
  /** Decimal string, 2 decimals: what the claimant receives. */
  amount: string;
  currency: PaymentLinkCurrency;
  /** The fee an ach or usdc claim costs (transfer fee of a withdrawal of `amount`), reserved in the hold; charged only by such a claim. */
  fee: string;
  description?: string;
  recipientRestrictions?: RecipientRestrictions;
  expiresAt: string;
  metadata?: Record<string, string>;
  status: PaymentLinkStatus;
  /** The ledger hold of amount + fee on the wallet (`txn_...`), taken at creation. */
  holdId: string;
  /** A link queued for human approval (PENDING_APPROVAL until decided). */
  approvalId?: string;
  /** The key that created it (never presented). */
  createdByKeyId: string;
  claim?: PaymentLinkClaim;
  /** A wallet claim: the posting that moved the money (`txn_...`); ach/usdc: the transfer's capture. */
  transactionId?: string;
  /** The last rail claim that failed (the link went back to ACTIVE, its hold intact). */
  lastClaimFailure?: { reason: string; at: string };
  idempotencyKey?: string;
  createdAt: string;
  updatedAt: string;
  settledAt?: string;
  cancelledAt?: string;
  expiredAt?: string;
}
