import Big from 'big.js';
import type { AuditAction } from '../audit/actions.js';
import type { Period } from '../policies/policy-types.js';
import type { Actor, Environment } from '../tenancy.js';
import type { HoldTrigger } from './hold-states.js';

/**
 * Ledger postings as data. A posting is balanced: its signed legs sum to zero. Wallet legs move a
 * wallet's available or held balance under conditions (active, same environment, enough funds in
 * the bucket a leg takes from); system legs (decisions.md section 2) only record: a system
 * account's balance is the sum of its legs in the journal, so no single hot item is updated by
 * every movement.
 */
export const SYSTEM_ACCOUNTS = {
  sandboxFunding: 'acc_SANDBOX_FUNDING',
  fees: 'acc_FEES',
  cardSettlement: 'acc_CARD_SETTLEMENT',
  /** Money customers paid for invoices (card, bank debit, USDC): its source on payment, where a refund returns it. */
  customerFunds: 'acc_CUSTOMER_FUNDS',
  /** Disputed money (decisions.md section 7): neither party can reach it until the dispute ends. */
  suspense: 'acc_SUSPENSE',
} as const;

/** Money in transit on a rail (decisions.md section 2: `acc_CLEARING_<RAIL>`): a deposit comes from it, a withdrawal goes to it. */
export const clearingAccountOf = (rail: string): string => `acc_CLEARING_${rail}`;

export const SYSTEM_ACCOUNT_PREFIX = 'acc_';

export type LedgerAccount = { kind: 'WALLET'; walletId: string } | { kind: 'SYSTEM'; accountId: string };

/**
 * Where a wallet leg moves money: `available` (what the wallet can spend; `balance` on the wire),
 * `held` (reserved by a hold until it is captured or voided) or `pending` (`pendingBalance`: an
 * ACH deposit clearing, released to available when the clearing period ends).
 */
export type Bucket = 'available' | 'held' | 'pending';
export const BUCKETS: readonly Bucket[] = ['available', 'held', 'pending'];

export interface Leg {
  account: LedgerAccount;
  /** Signed: negative debits the account, positive credits it. */
  amount: Big;
  /** Wallet legs only; default `available`. */
  bucket?: Bucket;
  /**
   * The leg settles money already accepted for the wallet (a hold captured or voided, a deposit
   * accepted while the wallet was active, a clearing deposit released): it may run on a FROZEN
   * wallet, never on a closed one (deletedAt).
   */
  settlesHold?: true;
  /**
   * A sweep of a closing wallet: debits even a FROZEN wallet, exactly its whole balance, and sets
   * fields; with `expectedActiveKeyId`, only while that key is still the wallet's active key.
   */
  close?: { expectedBalance: Big; set: Record<string, unknown>; expectedActiveKeyId?: string };
}

/** Movement types: the payment-like ones (listed by GET /v1/payments or statements) and the two-phase ones. */
export type TransactionType =
  | 'FUNDING'
  | 'PAYMENT'
  | 'REVERSAL'
  | 'BUDGET_ADJUSTMENT'
  | 'SWEEP'
  | 'HOLD'
  | 'CAPTURE'
  | 'VOID'
  | 'DEPOSIT'
  | 'INTERNAL_TRANSFER'
  | 'CLEARING_RELEASE'
  | 'CARD_REFUND'
  /** acc_CUSTOMER_FUNDS -total, the invoice's wallet +net, acc_FEES +fees (shared/domain/invoices/invoice-postings.ts). */
  | 'INVOICE_PAYMENT'
  /** The invoice's wallet -total, acc_CUSTOMER_FUNDS +total. */
  | 'INVOICE_REFUND'
  /** A dispute opened: the receiving wallet -amount, acc_SUSPENSE +amount (shared/domain/disputes/). */
  | 'DISPUTE'
  /** A dispute ended: acc_SUSPENSE -amount, the initiator's or the respondent's wallet +amount. */
  | 'DISPUTE_RESOLUTION';

/** The idempotency claim folded into the journal record: the record's id is derived from the key. */
export interface PostingIdempotency {
  key: string;
  /** A hash of the normalized parameters (IDEMPOTENCY_KEY_REUSE when another request differs). */
  fingerprint: string;
  /** The answer is known only after the commit (a balance read back): saved onto the record right after. */
  awaitsReply?: true;
}

/**
 * What the audit entry of the movement says, carried by its journal record and projected from the
 * table's stream (shared/domain/ledger/journal-projection.ts). `resourceId` only where the action's
 * resource can not be told from the record itself.
 */
export interface JournalAudit {
  action: AuditAction;
  actor: Actor;
  resourceId?: string;
}

/** One calendar period of the paying wallet's spend: counted always, limited when a policy says so. */
export interface SpendPeriod {
  period: Period;
  /** e.g. "2026-11-21", "2026-W47", "2026-11". */
  periodKey: string;
  /** The tightest limit of the wallet's active policies for the period, if any. */
  limit?: Big;
}

/**
 * The spend a payment adds to its paying wallet (decisions.md section 3: counted whether or not a
 * limit exists), kept on the wallet item itself and conditioned there, in the posting's write.
 */
export interface SpendCount {
  walletId: string;
  amount: Big;
  periods: SpendPeriod[];
  /** Periods the wallet still counts that are over: their counters are dropped by the same write. */
  stale: { period: Period; periodKey: string }[];
  /**
   * The wallet's `policyVersion` its limits were read under (hot wallets: a lane's quota granted
   * under another version refuses a limited debit, which then takes the exact slow path).
   */
  policyVersion?: number;
}

export interface Posting {
  transactionId: string;
  type: TransactionType;
  organizationId: string;
  environment: Environment;
  currency: 'USD';
  legs: Leg[];
  createdAt: string;
  description?: string;
  /** Fields of the journal record (from, to, amount, fee, status, ...). */
  attributes: Record<string, unknown>;
  /**
   * `create` writes a new journal record; `fromQueued` turns a QUEUED record (an approved
   * payment) into the posted one, so a decided approval can never post twice.
   */
  record: 'create' | 'fromQueued';
  /** Spend counted on the paying wallet, within its period limits, in the same transaction. */
  spend?: SpendCount;
  idempotency?: PostingIdempotency;
  /** The movement's audit entry, projected from the journal record. */
  audit?: JournalAudit;
  /** A capture or void: the hold's record moves HELD -> CAPTURED | VOIDED in the same transaction (at most once). */
  settles?: { holdId: string; trigger: HoldTrigger; capturedAmount: Big };
  /** A reversal: the original's record moves POSTED -> REVERSED in the same transaction (at most once). */
  reverses?: string;
}

function isBalanced(legs: Leg[]): boolean {
  return legs.reduce((sum, leg) => sum.plus(leg.amount), new Big(0)).eq(0);
}

/** A posting as a change of a service: its legs, journal record and spend in one transaction. */
export type PostingChange = { type: 'posting'; posting: Posting };

/**
 * A movement of an area (a transfer, a card authorization, a payment link) as a new journal
 * record, POSTED at `at` in USD with no fee unless `attributes` say otherwise.
 */
export function movementPosting(
  head: Pick<Posting, 'organizationId' | 'environment'>,
  transactionId: string,
  type: TransactionType,
  legs: Leg[],
  at: string,
  attributes: Record<string, unknown>,
  extra: Partial<Posting> = {},
): PostingChange {
  return {
    type: 'posting',
    posting: {
      transactionId,
      type,
      organizationId: head.organizationId,
      environment: head.environment,
      currency: 'USD',
      legs,
      createdAt: at,
      attributes: { fee: '0.00', status: 'POSTED', postedAt: at, ...attributes },
      record: 'create',
      ...extra,
    },
  };
}

/** Every wallet a posting moves money of: at most two, so its journal record is listed from both sides. */
export const MAX_WALLETS_PER_POSTING = 2;

export function walletsOf(legs: Leg[]): string[] {
  return [...new Set(legs.flatMap((leg) => (leg.account.kind === 'WALLET' ? [leg.account.walletId] : [])))];
}

export function assertBalanced(posting: Posting): void {
  if (posting.legs.length < 2 || !isBalanced(posting.legs)) {
    throw new Error(`posting ${posting.transactionId} is not balanced`);
  }
  if (posting.legs.some((leg) => leg.amount.eq(0))) {
    throw new Error(`posting ${posting.transactionId} has a zero leg`);
  }
  if (walletsOf(posting.legs).length > MAX_WALLETS_PER_POSTING) {
    throw new Error(`posting ${posting.transactionId} moves more than ${MAX_WALLETS_PER_POSTING} wallets`);
  }
}

/** A two-leg movement of available money: `amount` (> 0) from one account to another. */
export function transferLegs(from: LedgerAccount, to: LedgerAccount, amount: Big): Leg[] {
  return [
    { account: from, amount: amount.times(-1) },
    { account: to, amount },
  ];
}

export const walletAccount = (walletId: string): LedgerAccount => ({ kind: 'WALLET', walletId });
export const systemAccount = (accountId: string): LedgerAccount => ({ kind: 'SYSTEM', accountId });

/** An account id as the journal stores it (`wal_...` or `acc_...`). */
export const accountIdOf = (account: LedgerAccount): string =>
  account.kind === 'WALLET' ? account.walletId : account.accountId;
export const accountOf = (id: string): LedgerAccount =>
  id.startsWith(SYSTEM_ACCOUNT_PREFIX) ? systemAccount(id) : walletAccount(id);

/** What one wallet's legs do to its buckets: the net change, the amounts taken out, and whether every leg settles a hold. */
export interface BucketMovement {
  delta: Record<Bucket, Big>;
  taken: Record<Bucket, Big>;
  settlesHold: boolean;
}

export function bucketMovementOf(legs: Leg[]): BucketMovement {
  const delta: Record<Bucket, Big> = { available: new Big(0), held: new Big(0), pending: new Big(0) };
  const taken: Record<Bucket, Big> = { available: new Big(0), held: new Big(0), pending: new Big(0) };
  for (const leg of legs) {
    const bucket = leg.bucket ?? 'available';
    delta[bucket] = delta[bucket].plus(leg.amount);
    if (leg.amount.lt(0)) taken[bucket] = taken[bucket].plus(leg.amount.abs());
  }
  return { delta, taken, settlesHold: legs.every((leg) => leg.settlesHold) };
}
