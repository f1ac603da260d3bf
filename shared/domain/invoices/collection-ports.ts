import type { AuditChange } from '../audit/ports.js';
import type { ChangeCommitter } from '../change-committer.js';
import type { IdempotencyChange } from '../idempotency/ports.js';
import type { PostingChange } from '../ledger/posting.js';
import type { Environment, OrganizationScope } from '../tenancy.js';
import type { Page, PageRequest } from '../types.js';
import type { RecurringInterval, RecurringStatus } from './invoice-collection-rules.js';
import type { InvoiceChange, InvoiceStore } from './ports.js';
import type { InvoiceLineItem } from './types.js';

/**
 * What collecting invoices keeps beside the invoice (docs/api.md "Invoices: collection"): the USDC
 * deposit address of an invoice, the USDC receipts that matched nothing, the recurring schedule
 * started by a charge, and the failures of a charge being retried.
 */

/** An invoice's USDC deposit address: made once, kept; a pointer (address -> invoice) finds the invoice. */
export interface UsdcDeposit {
  invoiceId: string;
  organizationId: string;
  environment: Environment;
  /** EIP-55 checksummed, 20 random bytes. */
  address: string;
  chain: 'Ethereum';
  createdAt: string;
}

/** Why an incoming USDC transfer credited nothing. */
export type UsdcUnmatchedReason = 'unknown_address' | 'invoice_not_open' | 'amount_mismatch';
export const USDC_UNMATCHED_REASONS = ['unknown_address', 'invoice_not_open', 'amount_mismatch'] as const;

/**
 * An incoming USDC transfer that matched no open invoice (or not its exact amount): credited to
 * nobody, listed for the operator, who returns it on chain to the sender (docs/api.md).
 */
export interface UsdcReceipt {
  id: string;
  organizationId: string;
  environment: Environment;
  address: string;
  /** 2-decimal string, as received. */
  amount: string;
  /** The invoice of the address, when the address is one of the organization's invoices. */
  invoiceId?: string;
  /** That invoice's wallet (the event concerns it). */
  walletId?: string;
  reason: UsdcUnmatchedReason;
  status: 'UNMATCHED';
  receivedAt: string;
}

/**
 * A recurring charge, kept beside its first invoice: what each run bills (the first invoice's
 * lines), on which method, when, and how far it has run. Run 1 is the first invoice's charge.
 */
export interface RecurringSchedule {
  /** The first invoice (the schedule's id). */
  invoiceId: string;
  organizationId: string;
  environment: Environment;
  walletId: string;
  customerId: string;
  /** The method given to the first charge; absent: the customer's default at each run. */
  paymentMethodId?: string;
  lineItems: InvoiceLineItem[];
  memo?: string;
  metadata?: Record<string, unknown>;
  interval: RecurringInterval;
  endAt?: string;
  /** The first charge's time: run n is due `n - 1` intervals after it (invoice-collection-rules.ts). */
  anchorAt: string;
  /** The last run started (1 after the first charge). */
  run: number;
  /** When the next run is due; null once the schedule is no longer ACTIVE. */
  nextChargeAt: string | null;
  status: RecurringStatus;
  createdAt: string;
  cancelledAt?: string;
  endedAt?: string;
}

/** The failures of a charged invoice so far (1: the charge; 2..4: its retries), for its retry plan. */
export interface ChargeRetries {
  invoiceId: string;
  organizationId: string;
  environment: Environment;
  failures: number;
  firstFailedAt: string;
  /** The method charged (absent: the customer's default at each retry). */
  paymentMethodId?: string;
  lastDeclineCode: string;
}

export type CollectionChange =
  /** The deposit and its address pointer, once each: a second one loses (CONCURRENT_UPDATE) and the caller reads the first. */
  | { type: 'putUsdcDeposit'; deposit: UsdcDeposit }
  | { type: 'putUsdcReceipt'; receipt: UsdcReceipt }
  | { type: 'putRecurringSchedule'; schedule: RecurringSchedule }
  /**
   * Run `fromRun` -> `run`: conditioned on the schedule being ACTIVE at `fromRun` (a duplicated
   * schedule message loses here, before anything is charged twice).
   */
  | {
      type: 'advanceRecurringSchedule';
      invoiceId: string;
      fromRun: number;
      set: Partial<Pick<RecurringSchedule, 'run' | 'nextChargeAt' | 'status' | 'endedAt'>>;
    }
  /** ACTIVE -> CANCELLED (else 409 INVALID_STATE). */
  | { type: 'cancelRecurringSchedule'; invoiceId: string; cancelledAt: string }
  /** Failure number `retries.failures`: the first creates the record, each next one requires the one before. */
  | { type: 'recordChargeFailure'; retries: ChargeRetries };

export interface UsdcReceiptFilter {
  status?: 'UNMATCHED' | undefined;
}

export interface InvoiceCollectionStore
  extends
    Omit<InvoiceStore, 'commit'>,
    ChangeCommitter<InvoiceChange | CollectionChange | PostingChange | IdempotencyChange | AuditChange> {
  getUsdcDeposit(invoiceId: string): Promise<UsdcDeposit | undefined>;
  getUsdcDepositByAddress(address: string): Promise<UsdcDeposit | undefined>;
  listUsdcReceipts(scope: OrganizationScope, filter: UsdcReceiptFilter, page: PageRequest): Promise<Page<UsdcReceipt>>;
  getRecurringSchedule(invoiceId: string): Promise<RecurringSchedule | undefined>;
  getChargeRetries(invoiceId: string): Promise<ChargeRetries | undefined>;
}
