import type { Dispute } from '../disputes/types.js';
import type { Organization } from '../types.js';

/** The most items an operator review queue answers (oldest first; decide them and the next come). */
export const MAX_REVIEW_ITEMS = 100;

/** What the operator's review queues read (DynamoDB: shared/persistence/review-store.ts). */
export interface ReviewStore {
  /** Organizations whose KYB is PENDING (submitted, not decided), oldest submission first. */
  pendingKyb(limit: number): Promise<Organization[]>;
  /** Disputes OPEN or RESPONDED, of every organization, oldest first. */
  openDisputes(limit: number): Promise<Dispute[]>;
}

/**
 * The operator's review queues (issue 24, the dashboard's operator pages): what waits for a KYB
 * decision and which disputes wait for a resolution. Read only; the decisions go through the
 * existing operator operations (decideKyb, resolveDispute).
 */
export function createReviewService(deps: { store: ReviewStore }) {
  return {
    pendingKyb: () => deps.store.pendingKyb(MAX_REVIEW_ITEMS),
    openDisputes: () => deps.store.openDisputes(MAX_REVIEW_ITEMS),
  };
}

export type ReviewService = ReturnType<typeof createReviewService>;
