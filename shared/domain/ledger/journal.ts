import Big from 'big.js';
import type { Transaction } from '../types.js';
import type { HoldStatus } from './hold-states.js';
import { accountOf, type Bucket, type JournalAudit, type Leg, type Posting, type TransactionType } from './posting.js';

/**
 * The journal is the truth (shared/ARCHITECTURE.md): one record per movement, written in the
 * movement's transaction, holding its legs, what the request said (actor, idempotency key) and
 * what its audit entry and event say. Balances on wallet items are the running sums of these
 * legs; audit entries, events and organization payment lists are projections of these records.
 */
export interface JournalLeg {
  /** `wal_...` or `acc_...`. */
  account: string;
  bucket: Bucket;
  /** Signed. */
  amount: Big;
}

export interface JournalRecord extends Omit<Transaction, 'type' | 'status'> {
  type: TransactionType;
  status: Transaction['status'] | HoldStatus;
  /** Stored only when the legs are not the plain pair `from` -`amount`, `to` +`amount` (available). */
  legs?: JournalLeg[];
  audit?: JournalAudit;
  /** Hash of the normalized request parameters, with `idempotencyKey`: the key's claim. */
  idempotencyFingerprint?: string;
  /** The first answer, when it could only be known after the commit (fund, budget adjustment). */
  reply?: string;
  /** A payment queued for approval: when its approval expires (part of its first answer). */
  approvalExpiresAt?: string;
  /** Holds: what was captured, and the capture or void that settled the hold. */
  capturedAmount?: string;
  settledBy?: string;
  /** Captures and voids: the hold they settle. */
  holdId?: string;
}

/** A record moved money once it was posted (QUEUED, REJECTED and FAILED payments never did). */
export const movedMoney = (record: Pick<JournalRecord, 'postedAt'>): boolean => record.postedAt !== undefined;

/** The legs of a record, explicit or the plain pair of a transfer. */
export function legsOf(record: Pick<JournalRecord, 'legs' | 'from' | 'to' | 'amount'>): JournalLeg[] {
  if (record.legs) return record.legs;
  const amount = new Big(record.amount);
  return [
    { account: record.from, bucket: 'available', amount: amount.times(-1) },
    { account: record.to, bucket: 'available', amount },
  ];
}

/** The change of one wallet's balance in one bucket by a record (zero if the record does not touch it). */
export function deltaOf(record: JournalRecord, walletId: string, bucket: Bucket = 'available'): Big {
  return legsOf(record)
    .filter((leg) => leg.account === walletId && leg.bucket === bucket)
    .reduce((sum, leg) => sum.plus(leg.amount), new Big(0));
}

/** Legs as the journal stores them; undefined for a plain transfer from `from` to `to`. */
export function storedLegsOf(posting: Pick<Posting, 'legs'>, from: string, to: string): JournalLeg[] | undefined {
  const legs = posting.legs.map((leg: Leg): JournalLeg => ({
    account: leg.account.kind === 'WALLET' ? leg.account.walletId : leg.account.accountId,
    bucket: leg.bucket ?? 'available',
    amount: leg.amount,
  }));
  const [debit, credit] = [...legs].sort((a, b) => a.amount.cmp(b.amount));
  const plain =
    legs.length === 2 &&
    legs.every((leg) => leg.bucket === 'available') &&
    debit!.account === from &&
    credit!.account === to &&
    debit!.amount.plus(credit!.amount).eq(0);
  return plain ? undefined : legs;
}

/** The journal record a posting writes (the store encodes it; the ledger service answers it). */
export function journalRecordOf(posting: Posting): JournalRecord {
  const attributes = posting.attributes as Partial<JournalRecord>;
  const from = String(attributes.from);
  const to = String(attributes.to);
  const legs = storedLegsOf(posting, from, to);
  const idempotencyKey = posting.idempotency?.key ?? attributes.idempotencyKey;
  return {
    ...attributes,
    id: posting.transactionId,
    type: posting.type,
    organizationId: posting.organizationId,
    environment: posting.environment,
    currency: posting.currency,
    from,
    to,
    amount: String(attributes.amount),
    fee: attributes.fee ?? '0.00',
    status: attributes.status ?? 'POSTED',
    createdAt: posting.createdAt,
    ...(posting.description !== undefined ? { description: posting.description } : {}),
    ...(legs ? { legs } : {}),
    ...(posting.audit ? { audit: posting.audit } : {}),
    ...(idempotencyKey !== undefined ? { idempotencyKey } : {}),
    ...(posting.idempotency ? { idempotencyFingerprint: posting.idempotency.fingerprint } : {}),
  };
}

/** A record's legs as posting legs (to reverse them). */
export function postingLegsOf(record: JournalRecord): Leg[] {
  return legsOf(record).map((leg) => ({ account: accountOf(leg.account), amount: leg.amount, bucket: leg.bucket }));
}
