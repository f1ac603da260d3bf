import Big from 'big.js';
import { presentPayment } from './payment-view.js';
import type { AuditAction } from '../audit/actions.js';
import { postingClaim, type IdempotentResponse, type KeyClaim } from '../idempotency/idempotency.js';
import type { JournalRecord } from '../ledger/journal.js';
import {
  SYSTEM_ACCOUNTS,
  systemAccount,
  transferLegs,
  walletAccount,
  type Leg,
  type Posting,
  type PostingChange,
  type SpendCount,
} from '../ledger/posting.js';
import type { Actor } from '../tenancy.js';
import type { Transaction } from '../types.js';

/**
 * The legs of a payment: the payer pays `amount`; the payee gets it less `fee`, which goes to
 * acc_FEES (an invoice paid from a wallet, payment-rider.ts). Without a fee: two legs.
 */
export function paymentLegs(from: string, to: string, amount: Big, fee: Big = new Big(0)): Leg[] {
  if (fee.lt(0) || fee.gte(amount)) throw new Error(`fee ${fee.toFixed()} is not below the amount ${amount.toFixed()}`);
  if (fee.eq(0)) return transferLegs(walletAccount(from), walletAccount(to), amount);
  return [
    { account: walletAccount(from), amount: amount.times(-1) },
    { account: walletAccount(to), amount: amount.minus(fee) },
    { account: systemAccount(SYSTEM_ACCOUNTS.fees), amount: fee },
  ];
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
    // A payment's fee is withheld from the payee (an invoice paid from a wallet); a reversal has none.
    legs: paymentLegs(t.from, t.to, new Big(t.amount), t.type === 'PAYMENT' ? new Big(t.fee) : new Big(0)),
    createdAt: t.createdAt,
    ...(t.description ? { description: t.description } : {}),
    attributes: { ...t },
    record: args.record,
    ...(args.spend ? { spend: args.spend } : {}),
    ...(args.claim ? { idempotency: postingClaim(args.claim) } : {}),
    audit: {
      action: args.auditAction,
      actor: args.actor,
      ...(args.auditResourceId ? { resourceId: args.auditResourceId } : {}),
    },
  };
  return { type: 'posting', posting };
}

/** The payment a journal record holds, as the payments API shows it. */
export function transactionOf(record: JournalRecord): Transaction {
  const {
    legs: _legs,
    audit: _audit,
    idempotencyFingerprint: _f,
    reply: _r,
    approvalExpiresAt: _e,
    capturedAmount: _c,
    settledBy: _s,
    holdId: _h,
    ...transaction
  } = record;
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
  if (record.approvalId !== undefined && record.approvalExpiresAt !== undefined)
    return queuedAnswer(record.id, record.approvalId, record.approvalExpiresAt);
  const {
    reversedBy: _reversedBy,
    failureCode: _failureCode,
    disputeId: _disputeId,
    ...asPosted
  } = transactionOf(record);
  return {
    status: 200,
    body: presentPayment({ ...asPosted, status: 'POSTED', postedAt: record.postedAt ?? record.createdAt }),
    replayed: false,
  };
}
