import type { ApprovalChange } from '../approvals/ports.js';
import type { AuditChange } from '../audit/ports.js';
import type { IdempotencyChange, IdempotencyStore } from '../idempotency/ports.js';
import type { PostingChange } from '../ledger/posting.js';
import type { MerchantReader } from '../merchants/ports.js';
import type { Environment } from '../tenancy.js';
import type { Page, PageRequest, PaymentStatus, Transaction } from '../types.js';
import type { WalletReader, WalletSnapshotReader } from '../wallets/ports.js';
import type { TransactionTrigger } from './transaction-states.js';

export type PaymentChange =
  /** A transaction record without ledger legs (a QUEUED payment). */
  | { type: 'createTransaction'; transaction: Transaction }
  /** Moves a transaction record by a trigger of TRANSACTION_STATES; it must be in one of the trigger's `from` states. */
  | { type: 'setTransactionStatus'; transactionId: string; trigger: TransactionTrigger; fields?: Record<string, unknown>; onMismatch: 'REVERSAL_NOT_ALLOWED' | 'INVALID_STATE' };

export interface TransactionFilter {
  walletId?: string | undefined;
  status?: PaymentStatus | undefined;
}

export interface TransactionReader {
  getTransaction(transactionId: string): Promise<Transaction | undefined>;
}

export interface PaymentStore extends WalletReader, WalletSnapshotReader, MerchantReader, TransactionReader, IdempotencyStore {
  commit: (changes: (PaymentChange | PostingChange | ApprovalChange | IdempotencyChange | AuditChange)[]) => Promise<void>;
  /** Payments sent and received by the organization (or one wallet), newest first. */
  listTransactions(organizationId: string, environment: Environment, filter: TransactionFilter, page: PageRequest): Promise<Page<Transaction>>;
}
