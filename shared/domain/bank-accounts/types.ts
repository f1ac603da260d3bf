import type { Environment } from '../tenancy.js';

export const BANK_ACCOUNT_TYPES = ['CHECKING', 'SAVINGS'] as const;
export type BankAccountType = (typeof BANK_ACCOUNT_TYPES)[number];

/** Transitions in bank-account-states.ts; a DELETED account answers as absent. */
export const BANK_ACCOUNT_STATUSES = ['PENDING_VERIFICATION', 'VERIFIED', 'VERIFICATION_FAILED', 'DELETED'] as const;
export type BankAccountStatus = (typeof BANK_ACCOUNT_STATUSES)[number];

/** A linked bank account (decisions.md section 4). The account number exists only sealed. */
export interface BankAccount {
  id: string;
  organizationId: string;
  environment: Environment;
  accountName: string;
  accountType: BankAccountType;
  /** Nine digits with a valid ABA checksum; not secret (it names the bank). */
  routingNumber: string;
  /** The last four digits of the account number: all that is ever shown. */
  last4: string;
  /** The account number sealed (shared/domain/sealing.ts) under the context `sealingContexts.accountNumber(id)`; erased (empty) on delete. */
  accountNumberSealed: string;
  /** The expected micro-deposit amounts sealed under `sealingContexts.microDeposits(id)`; removed once verified or deleted. */
  microDepositsSealed: string | null;
  status: BankAccountStatus;
  /** Wrong micro-deposit answers so far (at most MAX_VERIFICATION_ATTEMPTS). */
  failedVerificationAttempts: number;
  createdAt: string;
  verifiedAt: string | null;
  deletedAt: string | null;
}

/**
 * The sealing contexts of a bank account's secrets: each binds a sealed value to its account and
 * its purpose, so neither can be copied onto another account nor swapped for the other.
 */
export const sealingContexts = {
  accountNumber: (bankAccountId: string) => bankAccountId,
  microDeposits: (bankAccountId: string) => `${bankAccountId}#micro-deposits`,
};
