import type { AuditChange } from '../audit/ports.js';
import type { ChangeCommitter } from '../change-committer.js';
import type { OrganizationScope } from '../tenancy.js';
import type { Page, PageRequest } from '../types.js';
import type { BankAccount } from './types.js';

export type BankAccountChange =
  | { type: 'putBankAccount'; bankAccount: BankAccount }
  /**
   * PENDING_VERIFICATION -> VERIFIED, conditioned on the `verify` from-states and on the count of
   * wrong answers read (`failedAttempts`): a right answer checked against a read that other answers
   * have since been counted over is refused with CONCURRENT_UPDATE (read again and retry), so every
   * answer is decided against the exact state it commits on. The sealed micro-deposits go.
   */
  | { type: 'verifyBankAccount'; bankAccountId: string; failedAttempts: number; verifiedAt: string }
  /**
   * One wrong micro-deposit answer, counted over the count read (`failedAttempts` -> `failedAttempts + 1`,
   * only while PENDING_VERIFICATION): of concurrent answers each is counted once or refused with
   * CONCURRENT_UPDATE (read again and retry), so no more than MAX_VERIFICATION_ATTEMPTS are ever
   * counted. `fail`: this answer is the last allowed, the account becomes VERIFICATION_FAILED.
   */
  | {
      type: 'countFailedBankAccountVerification';
      bankAccountId: string;
      failedAttempts: number;
      fail: boolean;
      at: string;
    }
  /** Any live state -> DELETED: the sealed account number, the micro-deposits and the list entry go. */
  | { type: 'deleteBankAccount'; bankAccountId: string; deletedAt: string };

/** What other areas (transfers) read of bank accounts. */
export interface BankAccountReader {
  /**
   * The account, or undefined when it does not exist, is deleted, or belongs to another
   * organization. An account of the scope's organization in the other environment is returned as
   * is: the caller answers ENVIRONMENT_MISMATCH (accessibleBankAccount does both checks).
   */
  getBankAccount(scope: OrganizationScope, id: string): Promise<BankAccount | undefined>;
}

export interface BankAccountStore extends BankAccountReader, ChangeCommitter<BankAccountChange | AuditChange> {
  /** The live (not deleted) accounts of an organization environment, newest first. */
  listBankAccounts(scope: OrganizationScope, page: PageRequest): Promise<Page<BankAccount>>;
}
