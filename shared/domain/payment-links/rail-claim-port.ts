import type { AuditChange } from '../audit/ports.js';
import type { IdempotencyChange } from '../idempotency/ports.js';
import type { UsdcChain } from '../usdc/addresses.js';
import type { PaymentLink } from './types.js';

/**
 * An ach or usdc destination as the claim validated it (routing number checksum, account number
 * 4-17 digits; a USDC address valid for its chain). The account number is in clear here only:
 * the rail claim seals it bound to its transfer and never stores, logs or presents it.
 */
export type RailClaimDestination =
  | { type: 'ACH'; routingNumber: string; accountNumber: string; accountName?: string | undefined }
  | { type: 'USDC'; address: string; chain: UsdcChain };

/**
 * What the claim service hands the rail claim (docs/api.md "Payment links"): an ACTIVE link whose
 * restrictions the claimant passed, and the validated destination.
 */
export interface RailClaimRequest {
  link: PaymentLink;
  destination: RailClaimDestination;
  /** Lower-cased, when the claimant gave one. */
  recipientEmail?: string | undefined;
  now: Date;
  /**
   * The changes to commit in the claim's own transaction, given the link as it will be stored
   * (CLAIMED, `claim` set with its `transferId`): the audit entry (`payment-link.claim`), the
   * event `payment_link.claimed`, and the idempotency answer when the claim has a key.
   */
  claimChanges(claimed: PaymentLink): (AuditChange | IdempotencyChange)[];
}

/**
 * The ach/usdc claim (shared/domain/payment-links/payment-link-rail-claim.ts): a WITHDRAWAL transfer
 * adopting the link's hold (no new hold), committed with the link ACTIVE -> CLAIMED (`claim`) and
 * `claimChanges(claimed)` in one transaction, then the transfer's workflow started. Answers the
 * link as committed (CLAIMED). A lost race (the link no longer ACTIVE) fails with INVALID_STATE.
 */
export type ClaimByRail = (request: RailClaimRequest) => Promise<PaymentLink>;
