import type { AuditChange } from '../audit/ports.js';
import type { PostingChange } from '../ledger/posting.js';
import type { PaymentLinkChange } from '../payment-links/changes.js';
import type { Actor } from '../tenancy.js';
import type { Approval } from '../types.js';

/**
 * The changes a subject commits with a decision: its own transition (the link's writer and
 * condition), a posting (the hold released) and its audit entries and events.
 */
export type SubjectChange = Extract<PaymentLinkChange, { type: 'transitionPaymentLink' }> | PostingChange | AuditChange;

/**
 * What an approval decides when it is not a queued payment (decisions.md section 3, docs/api.md
 * "Payment links"): a payment link created PENDING_APPROVAL with its hold already taken. Declared
 * here, built by the subject's area (shared/domain/payment-links/payment-link-approvals.ts). No
 * queued transaction is touched for such an approval (its `transactionId` is the subject's hold);
 * the subject's changes are committed in the decision's transaction, with its audit entry and
 * approval event: the decision and what it decides move together or not at all. Each method is
 * given the approval as decided (its status APPROVED, REJECTED, EXPIRED or FAILED).
 */
export interface ApprovalSubject {
  /**
   * Changes committed with an approval (the link PENDING_APPROVAL -> ACTIVE); a refusal (an Error:
   * an ApiError's code becomes the approval's `failureCode`) when it can no longer be approved.
   */
  onApproved(approval: Approval, actor: Actor, at: string): Promise<SubjectChange[] | Error>;
  /**
   * Changes committed with a rejection, an expiry or a failure: the link CANCELLED (`refuse`) and
   * its hold voided; none when it is no longer waiting for the decision (expired meanwhile).
   */
  onRefused(approval: Approval, actor: Actor, at: string): Promise<SubjectChange[]>;
}

/** Finds the subject of an approval that names one (read again at each decision). */
export interface ApprovalSubjects {
  subjectOf(approval: Approval & { paymentLinkId: string }): Promise<ApprovalSubject>;
}

/** Without a subject resolver, an approval of a payment link can not be decided. */
export const NO_SUBJECTS: ApprovalSubjects = {
  subjectOf: (approval) => Promise.reject(new Error(`no subject resolver for the payment link of ${approval.id}`)),
};
