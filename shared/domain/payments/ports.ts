import type { ApprovalChange } from '../approvals/changes.js';
import type { AuditChange } from '../audit/ports.js';
import type { IdempotencyChange, IdempotencySlot, IdempotencyStore } from '../idempotency/ports.js';
import type { PostingChange, PostingIdempotency } from '../ledger/posting.js';
import type { MerchantReader } from '../merchants/ports.js';
import type { Environment } from '../tenancy.js';
import type { MerchantProfile, Page, PageRequest, PaymentStatus, Transaction, Wallet } from '../types.js';
import type { WalletReader, WalletSnapshotReader } from '../wallets/ports.js';
import type { RiderChange } from './payment-rider.js';
import type { TransactionTrigger } from './transaction-states.js';

export type PaymentChange =
  /**
   * A journal record without legs (a QUEUED payment): with a key, it is the key's claim (its id
   * is the key's slot) and carries when its approval expires, for the 202 it replays.
   */
  | {
      type: 'createTransaction';
      transaction: Transaction;
      idempotency?: PostingIdempotency;
      approvalExpiresAt?: string;
    }
  /** Moves a transaction record by a trigger of TRANSACTION_STATES; it must be in one of the trigger's `from` states. */
  | {
      type: 'setTransactionStatus';
      transactionId: string;
      trigger: TransactionTrigger;
      fields?: Record<string, unknown>;
      onMismatch: 'REVERSAL_NOT_ALLOWED' | 'INVALID_STATE';
    };

export interface TransactionFilter {
  walletId?: string | undefined;
  status?: PaymentStatus | undefined;
}

export interface TransactionReader {
  getTransaction(transactionId: string): Promise<Transaction | undefined>;
}

/** What a payment reads before its transaction, in one call: the key's first slot, the payee wallet or merchant. */
export interface PaymentReads {
  slotId?: string | undefined;
  walletId?: string | undefined;
  merchant?: { environment: Environment; domain: string } | undefined;
}

export interface PaymentReadResult {
  /** null: read, absent. */
  slot?: IdempotencySlot | null;
  wallet?: Wallet | null;
  merchant?: MerchantProfile | null;
}

export interface PaymentStore
  extends WalletReader, WalletSnapshotReader, MerchantReader, TransactionReader, IdempotencyStore {
  commit: (
    changes: (PaymentChange | PostingChange | ApprovalChange | IdempotencyChange | AuditChange | RiderChange)[],
  ) => Promise<void>;
  /** The items named, with one consistent read (a batch read when there are several). */
  readTogether(reads: PaymentReads): Promise<PaymentReadResult>;
  /** Payments sent and received by the organization (or one wallet), newest first. */
  listTransactions(
    organizationId: string,
    environment: Environment,
    filter: TransactionFilter,
    page: PageRequest,
  ): Promise<Page<Transaction>>;
}
