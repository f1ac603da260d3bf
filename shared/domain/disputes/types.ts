import type { Environment } from '../tenancy.js';

/** Dispute statuses (interface-spec 2.5, 3.2). */
export const DISPUTE_STATUSES = ['OPEN', 'RESPONDED', 'RESOLVED_AGENT', 'RESOLVED_MERCHANT', 'CLOSED'] as const;
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];

/** What the initiator says happened (interface-spec 4.4). */
export const DISPUTE_TYPES = ['REVERSAL', 'FRAUD', 'SERVICE_ISSUE'] as const;
export type DisputeType = (typeof DISPUTE_TYPES)[number];

/** The operator's outcomes (decisions.md section 7): the initiator wins, the merchant wins, closed without remedy. */
export const DISPUTE_OUTCOMES = ['RESOLVED_AGENT', 'RESOLVED_MERCHANT', 'CLOSED'] as const;
export type DisputeOutcome = (typeof DISPUTE_OUTCOMES)[number];

/** Who ended a dispute: the operator's resolve, or the deadline workflow (actor SYSTEM). */
export type DisputeResolver = 'OPERATOR' | 'DEADLINE';

/**
 * A dispute of a posted payment (`txn_`), stored once in its own partition and listed by both
 * parties. The initiator is the paying organization (`organizationId`), the respondent the one
 * that received the payment (`respondentOrgId`). While it is OPEN or RESPONDED, `amount` sits in
 * `acc_SUSPENSE` (the `holdTransactionId` posting took it from `receivingWalletId`); its resolution
 * posting (`resolutionTransactionId`) pays it to `creditedWalletId`.
 */
export interface Dispute {
  id: string;
  /** The initiator: the organization that paid. */
  organizationId: string;
  environment: Environment;
  /** The disputed payment. */
  transactionId: string;
  /** The organization that received the payment. */
  respondentOrgId: string;
  /** The disputed payment's paying wallet (the initiator's; RESOLVED_AGENT pays back here). */
  payerWalletId: string;
  /** The disputed payment's receiving wallet (the respondent's; the amount is taken from it). */
  receivingWalletId: string;
  type: DisputeType;
  /** Decimal string, 2 decimals, at most the payment's amount. */
  amount: string;
  currency: 'USD';
  reason: string;
  status: DisputeStatus;
  /** The respondent's explanation and evidence (RESPONDED). */
  response?: string;
  evidenceUrl?: string;
  respondedAt?: string;
  /** The response deadline: created + 7 days (divided by TIME_SCALE in the sandbox). */
  respondBy: string;
  /** The posting that moved `amount` from the receiving wallet to acc_SUSPENSE. */
  holdTransactionId: string;
  resolvedBy?: DisputeResolver;
  resolutionNote?: string;
  resolvedAt?: string;
  /** The posting that moved `amount` out of acc_SUSPENSE at resolution, and the wallet it credited. */
  resolutionTransactionId?: string;
  creditedWalletId?: string;
  /** The key that opened it (never presented). */
  requestedByKeyId: string;
  createdAt: string;
  updatedAt: string;
}

/** The refusals for funds of one payment's openings in the current window (a counter item with a TTL; dispute-rules.ts). */
export interface FundsRefusals {
  count: number;
  since: string;
}
