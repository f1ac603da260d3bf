import Big from 'big.js';
import { presentPayment } from './payment-view.js';
import type { AuditAction } from '../audit/actions.js';
import type { IdempotentResponse, KeyClaim } from '../idempotency/idempotency.js';
import type { JournalRecord } from '../ledger/journal.js';
import { transferLegs, walletAccount, type Posting, type PostingChange, type SpendCount } from '../ledger/posting.js';
import { periodKeyOf, previousPeriodKeyOf } from '../policies/policy-rules.js';
import type { Period, PeriodLimitCheck, SpendCounter } from '../policies/policy-types.js';
import type { Actor } from '../tenancy.js';
import type { Transaction } from '../types.js';

const PERIODS: readonly Period[] = ['DAY', 'WEEK', 'MONTH'];

/**
 * What a payment adds to its paying wallet's spend: every calendar period, whether or not a
 * policy limits it (a limit added later counts what was spent before it, decisions.md section 3),
 * each within its tightest limit. Counters of periods that ended are dropped, except the one just
 * before the current period: a payment of that period still in flight when the period turned must
 * find its counter (a missing counter counts as zero spent), or it could exceed the limit.
 */
export function spendOf(walletId: string, amount: Big, at: Date, limits: PeriodLimitCheck[], stored: SpendCounter[]): SpendCount {
  const periods = PERIODS.map((period) => {
    const limit = limits.find((check) => check.period === period)?.limit;
    return { period, periodKey: periodKeyOf(period, at), ...(limit ? { limit } : {}) };
  });
  const kept = (counter: SpendCounter) => counter.periodKey === periodKeyOf(counter.period, at) || counter.periodKey === previousPeriodKeyOf(counter.period, at);
  const stale = stored.filter((counter) => !kept(counter)).map(({ period, periodKey }) => ({ period, periodKey }));
  return { walletId, amount, periods, stale };
}

/**
 * The spend a released hold gives back to its wallet (a withdrawal that failed or was cancelled, a
 * card authorization reversed or captured for less): `amount` off the counters of the periods it
 * was counted in (`countedAt`), those still kept (the current and the previous one); a counter of
 * a period already dropped has nothing to give back. No limit applies to a give-back.
 */
export function spendReturned(walletId: string, amount: Big, countedAt: Date, now: Date): SpendCount | undefined {
  const periods = PERIODS.map((period) => ({ period, periodKey: periodKeyOf(period, countedAt) })).filter(
    ({ period, periodKey }) => periodKey === periodKeyOf(period, now) || periodKey === previousPeriodKeyOf(period, now),
  );
  return periods.length === 0 ? undefined : { walletId, amount: amount.times(-1), periods, stale: [] };
}

/**
 * The posting of a payment (or of its reversal): balanced legs, its journal record carrying the
 * key's claim and what its audit entry says, and the payer's spend. The audit entry and the
 * `payment.posted` / `payment.reversed` event are projected from the record (journal-projection.ts).
 */
export function paymentPosting(args: {
  transaction: Transaction;
  record: Posting['record'];
  actor: Actor;
  auditAction: AuditAction;
  spend?: SpendCount;
  claim?: KeyClaim;
  /** For an approved payment: the approval, which its audit entry names. */
  auditResourceId?: string;
}): PostingChange {
  const { transaction: t } = args;
  const posting: Posting = {
    transactionId: t.id,
    type: t.type,
    organizationId: t.organizationId,
    environment: t.environment,
    currency: 'USD',
    legs: transferLegs(walletAccount(t.from), walletAccount(t.to), new Big(t.amount)),
    createdAt: t.createdAt,
    ...(t.description ? { description: t.description } : {}),
    attributes: { ...t },
    record: args.record,
    ...(args.spend ? { spend: args.spend } : {}),
    ...(args.claim ? { idempotency: { key: args.claim.key, fingerprint: args.claim.fingerprint } } : {}),
    audit: { action: args.auditAction, actor: args.actor, ...(args.auditResourceId ? { resourceId: args.auditResourceId } : {}) },
  };
  return { type: 'posting', posting };
}

/** The payment a journal record holds, as the payments API shows it. */
export function transactionOf(record: JournalRecord): Transaction {
  const { legs: _legs, audit: _audit, idempotencyFingerprint: _f, reply: _r, approvalExpiresAt: _e, capturedAmount: _c, settledBy: _s, holdId: _h, ...transaction } = record;
  return transaction as Transaction;
}

/** The 202 answer of a payment queued for approval (also what its key replays). */
export function queuedAnswer(transactionId: string, approvalId: string, expiresAt: string): IdempotentResponse {
  const body = {
    error: {
      code: 'APPROVAL_REQUIRED',
      message: 'A spend policy requires human approval; the payment is queued and posts once approved.',
      details: { approvalId, transactionId, expiresAt },
    },
  };
  return { status: 202, body, replayed: false };
}

/**
 * A payment's (or reversal's) first answer again, from its journal record: the 202 of a payment
 * that was queued, else the payment as it posted (whatever happened to it since: a replay is the
 * first response, decisions.md section 3).
 */
export function replayOfPayment(record: JournalRecord): IdempotentResponse {
  if (record.approvalId !== undefined && record.approvalExpiresAt !== undefined) return queuedAnswer(record.id, record.approvalId, record.approvalExpiresAt);
  const { reversedBy: _reversedBy, failureCode: _failureCode, ...asPosted } = transactionOf(record);
  return { status: 200, body: presentPayment({ ...asPosted, status: 'POSTED', postedAt: record.postedAt ?? record.createdAt }), replayed: false };
}
