import type Big from 'big.js';
import { ApiError, validationError } from '../errors.js';
import type { Actor, Environment, Principal } from '../tenancy.js';
import { scaledMs } from '../transfers/transfer-rules.js';
import type { Transaction } from '../types.js';
import type { DisputeTrigger } from './dispute-states.js';
import type { Dispute, DisputeOutcome, FundsRefusals } from './types.js';

/** How long the respondent has to answer (decisions.md section 7): 7 days, divided by TIME_SCALE in the sandbox. */
export const DISPUTE_RESPONSE_MS = 7 * 24 * 3600_000;

/** Bounds of the request fields (docs/api.md "Disputes"). */
export const MAX_DISPUTE_REASON = 1000;
export const MAX_DISPUTE_RESPONSE = 2000;
export const MAX_EVIDENCE_URL = 2048;
export const MAX_RESOLUTION_NOTE = 1000;
/** `offset` of GET /v1/disputes: at most this many disputes are skipped (each list reads offset + limit items). */
export const MAX_DISPUTE_OFFSET = 10_000;
export const DEFAULT_DISPUTE_PAGE = 50;
/** How much of a reason or response an audit entry repeats (the dispute holds the whole text). */
export const AUDIT_TEXT_LIMIT = 200;

/** Who acts without a key: the deadline (its lapse), and the initiator as the respondent's audit log names it. */
const systemActor = (actorId: string): Actor => ({ actorType: 'SYSTEM', actorId, ipAddress: '127.0.0.1' });
export const DEADLINE_ACTOR = systemActor('dispute-deadline');
export const INITIATOR_ACTOR = systemActor('dispute-initiator');

export function respondByOf(environment: Environment, createdAt: Date, timeScale: number): string {
  return new Date(createdAt.getTime() + scaledMs(environment, DISPUTE_RESPONSE_MS, timeScale)).toISOString();
}

/** The operator's outcome as a trigger of DISPUTE_STATES. */
export const OUTCOME_TRIGGERS: Record<DisputeOutcome, DisputeTrigger> = {
  RESOLVED_AGENT: 'resolveForAgent',
  RESOLVED_MERCHANT: 'resolveForMerchant',
  CLOSED: 'close',
};

/** Where the held amount goes: the initiator's paying wallet when the initiator wins, else back to the receiving wallet. */
export function beneficiaryOf(dispute: Dispute, outcome: DisputeOutcome): { walletId: string; organizationId: string } {
  return outcome === 'RESOLVED_AGENT'
    ? { walletId: dispute.payerWalletId, organizationId: dispute.organizationId }
    : { walletId: dispute.receivingWalletId, organizationId: dispute.respondentOrgId };
}

/** The caller's side of a dispute: initiator, respondent, or none (an outsider: 404). */
export type DisputeSide = 'INITIATOR' | 'RESPONDENT';

/**
 * The side a key sees the dispute from (docs/api.md "Disputes"): its organization is a party, and an
 * agent key's wallet is that party's wallet of the dispute. Undefined for everyone else.
 */
export function sideOf(principal: Principal, dispute: Dispute): DisputeSide | undefined {
  const own = principal.walletId;
  if (principal.organizationId === dispute.organizationId && (own === null || own === dispute.payerWalletId))
    return 'INITIATOR';
  if (principal.organizationId === dispute.respondentOrgId && (own === null || own === dispute.receivingWalletId))
    return 'RESPONDENT';
  return undefined;
}

/**
 * Whether the caller may dispute this payment, in the documented order (after the payment was found
 * visible): only the paying organization (an agent key: a payment FROM its wallet), only a POSTED
 * wallet-to-wallet payment between two organizations that paid no invoice, at most once.
 */
export function assertDisputable(principal: Principal, payment: Transaction): void {
  if (payment.organizationId !== principal.organizationId)
    throw new ApiError('PERMISSION_DENIED', 'Only the paying organization can dispute this payment.');
  if (principal.walletId !== null && principal.walletId !== payment.from)
    throw new ApiError('PERMISSION_DENIED', 'An agent key disputes only payments from its wallet.');
  if (payment.type !== 'PAYMENT') throw new ApiError('DISPUTE_NOT_ALLOWED', 'Only a payment can be disputed.');
  if (payment.invoiceId !== undefined)
    throw new ApiError('DISPUTE_NOT_ALLOWED', 'This payment paid an invoice: ask for a refund of the invoice.', {
      invoiceId: payment.invoiceId,
    });
  if ((payment.payeeOrganizationId ?? payment.organizationId) === payment.organizationId)
    throw new ApiError('DISPUTE_NOT_ALLOWED', 'Both wallets are yours: reverse the payment instead.');
  if (payment.status !== 'POSTED')
    throw new ApiError('INVALID_STATE', `The payment is ${payment.status}, not POSTED.`, {
      status: payment.status,
    });
  if (payment.disputeId !== undefined)
    throw new ApiError('DISPUTE_EXISTS', undefined, { disputeId: payment.disputeId });
}

/** The request's own checks against the payment: the respondent named (if any) and the amount. */
export function assertClaim(payment: Transaction, respondentOrgId: string | undefined, amount: Big): void {
  if (respondentOrgId !== undefined && respondentOrgId !== payment.payeeOrganizationId)
    throw validationError('respondentOrgId', 'is not the receiving organization');
  if (amount.gt(payment.amount))
    throw validationError('amount', `must be at most the payment's amount (${payment.amount})`);
}

/** What the initiator learns when the receiving wallet can not give the amount now: nothing of the respondent's. */
export const cannotTakeAmount = () =>
  new ApiError('INSUFFICIENT_FUNDS', 'The receiving wallet can not give this amount now.');

/**
 * Balance probing (docs/api.md "Disputes"): after MAX_FUNDS_REFUSALS openings of one payment were
 * refused for funds within FUNDS_REFUSAL_WINDOW_MS of the first (not scaled), opening a dispute of
 * it answers 429 RATE_LIMIT_EXCEEDED until the window is over.
 */
export const MAX_FUNDS_REFUSALS = 3;
export const FUNDS_REFUSAL_WINDOW_MS = 24 * 3600_000;

/** When the refusals' window is over (epoch ms). */
export const refusalWindowEnd = (refusals: FundsRefusals) => Date.parse(refusals.since) + FUNDS_REFUSAL_WINDOW_MS;

/** Seconds until this payment may be disputed again; undefined when it may be now. */
export function refusalRetryAfterS(refusals: FundsRefusals | undefined, now: Date): number | undefined {
  if (!refusals || refusals.count < MAX_FUNDS_REFUSALS || refusalWindowEnd(refusals) <= now.getTime()) return undefined;
  return Math.max(1, Math.ceil((refusalWindowEnd(refusals) - now.getTime()) / 1000));
}

/** The count after one more refusal (a new window when the last one is over). */
export const nextRefusals = (refusals: FundsRefusals | undefined, now: Date): FundsRefusals =>
  refusals && refusalWindowEnd(refusals) > now.getTime()
    ? { ...refusals, count: refusals.count + 1 }
    : { count: 1, since: now.toISOString() };

/** A text cut for an audit entry. */
export const auditText = (text: string | undefined): string | undefined => text?.slice(0, AUDIT_TEXT_LIMIT);
