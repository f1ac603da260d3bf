import Big from 'big.js';
import type { Environment } from '../tenancy.js';
import type { PeriodLimitCheck } from '../policies/policy-types.js';

/**
 * Ledger postings as data. A posting is balanced: its signed legs sum to zero. Wallet legs move a
 * wallet's available balance under conditions (active, same environment, enough funds for a
 * debit); system legs (decisions.md section 2) only record entries: a system account's balance is
 * the sum of its entries, so no single hot item is updated by every movement.
 */
export const SYSTEM_ACCOUNTS = {
  sandboxFunding: 'acc_SANDBOX_FUNDING',
} as const;

export type LedgerAccount = { kind: 'WALLET'; walletId: string } | { kind: 'SYSTEM'; accountId: string };

export interface Leg {
  account: LedgerAccount;
  /** Signed: negative debits the account, positive credits it. */
  amount: Big;
  /** A sweep of a closing wallet: debits even a FROZEN wallet, exactly its whole balance, and sets fields. */
  close?: { expectedBalance: Big; set: Record<string, unknown> };
}

export type TransactionType = 'FUNDING' | 'PAYMENT' | 'REVERSAL' | 'BUDGET_ADJUSTMENT' | 'SWEEP';

export interface Posting {
  transactionId: string;
  type: TransactionType;
  organizationId: string;
  environment: Environment;
  currency: 'USD';
  legs: Leg[];
  createdAt: string;
  description?: string;
  /** Fields of the transaction record (from, to, amount, fee, status, ...). */
  attributes: Record<string, unknown>;
  /**
   * `create` writes a new transaction record; `fromQueued` turns a QUEUED record (an approved
   * payment) into the posted one, so a decided approval can never post twice.
   */
  record: 'create' | 'fromQueued';
  /** Period spend limits counted atomically in the same transaction. */
  periodLimits?: PeriodLimitCheck[];
}

function isBalanced(legs: Leg[]): boolean {
  return legs.reduce((sum, leg) => sum.plus(leg.amount), new Big(0)).eq(0);
}

/** A posting as a change of a service: its legs, transaction record and period counters in one transaction. */
export type PostingChange = { type: 'posting'; posting: Posting };

export function assertBalanced(posting: Posting): void {
  if (posting.legs.length < 2 || !isBalanced(posting.legs)) {
    throw new Error(`posting ${posting.transactionId} is not balanced`);
  }
  if (posting.legs.some((leg) => leg.amount.eq(0))) {
    throw new Error(`posting ${posting.transactionId} has a zero leg`);
  }
}

/** A two-leg movement: `amount` (> 0) from one account to another. */
export function transferLegs(from: LedgerAccount, to: LedgerAccount, amount: Big): Leg[] {
  return [
    { account: from, amount: amount.times(-1) },
    { account: to, amount },
  ];
}

export const walletAccount = (walletId: string): LedgerAccount => ({ kind: 'WALLET', walletId });
export const systemAccount = (accountId: string): LedgerAccount => ({ kind: 'SYSTEM', accountId });
