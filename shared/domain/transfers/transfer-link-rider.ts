import type { AuditChange } from '../audit/ports.js';
import type { PaymentLinkChange } from '../payment-links/changes.js';
import type { Transfer } from './types.js';

/**
 * What a link transfer may commit with its own transition: the link's transition (the
 * payment-links area's writer and condition), with that area's audit entry and event. The
 * transfer area knows this type, never how it is built.
 */
export type LinkRiderChange = Extract<PaymentLinkChange, { type: 'transitionPaymentLink' }> | AuditChange;

/**
 * A withdrawal that carries a payment link's claim (`paymentLinkId`, an ach or usdc claim; it
 * captures the link's own hold). Declared here, built by the payment-links area
 * (shared/domain/payment-links/payment-link-transfers.ts). The transfer stays a withdrawal (its
 * workflow, rail, events `withdrawal.*`); the rider only decides the link's side, in the same
 * transaction as the transfer's end:
 *
 * - completed: the hold captured as for any withdrawal, and `onCompleted`'s changes (the link
 *   SETTLED);
 * - rejected, failed or cancelled: `onUnpaid` says what becomes of the link and whether the hold is
 *   voided. Not voided, the hold stays HELD: it is the link's again (the link ACTIVE, claimable).
 */
export interface TransferLinkRider {
  /**
   * Changes committed with the capture of a completed link transfer (link CLAIMED -> SETTLED, event,
   * audit). Asynchronous: the event presents the link, which the rider reads.
   */
  onCompleted(transfer: Transfer, at: string): Promise<LinkRiderChange[]>;
  /** A failed, rejected or cancelled link transfer: the link's changes, and whether the hold is voided. */
  onUnpaid(transfer: Transfer, at: string): Promise<LinkUnpaid>;
}

export interface LinkUnpaid {
  changes: LinkRiderChange[];
  voidHold: boolean;
  /**
   * When the hold was taken (the link's creation): a voided hold gives its amount back to the
   * period spend counted then, not at the claim (default: the transfer's `createdAt`).
   */
  holdTakenAt?: string;
}

/** Without a rider, a link transfer never ends: its transition fails (and the reconciler tries again). */
export const NO_LINK_RIDER: TransferLinkRider = {
  onCompleted: (transfer) => Promise.reject(new Error(`no payment-link rider for the transfer ${transfer.id}`)),
  onUnpaid: (transfer) => Promise.reject(new Error(`no payment-link rider for the transfer ${transfer.id}`)),
};

/** The link a withdrawal carries, if any (deposits and internal transfers never carry one). */
export const linkOf = (transfer: Transfer): string | undefined =>
  transfer.direction === 'WITHDRAWAL' ? transfer.paymentLinkId : undefined;
