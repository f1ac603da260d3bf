import type { AuditChange } from '../audit/ports.js';
import type { BankAccountReader } from '../bank-accounts/ports.js';
import type { ChangeCommitter } from '../change-committer.js';
import type { IdempotencyChange, IdempotencyStore } from '../idempotency/ports.js';
import type { PostingChange } from '../ledger/posting.js';
import type { OrganizationScope } from '../tenancy.js';
import type { Page, PageRequest } from '../types.js';
import type { WalletReader, WalletSnapshotReader } from '../wallets/ports.js';
import type { LinkRiderChange } from './transfer-link-rider.js';
import type { TransferTrigger } from './transfer-states.js';
import type { Transfer, TransferDirection, TransferStatus } from './types.js';

/**
 * The transfer workflow (Step Functions standard workflow `transfer`, lib/workflows/): started once
 * per transfer after its creation commits (execution name = transfer id, so a second start of the
 * same transfer is the same execution), it calls the `transfer-steps` worker for each step.
 */
export interface TransferWorkflows {
  start(transfer: { id: string; organizationId: string; environment: string }): Promise<void>;
}

/** The steps of the workflow: submit to the rail (INITIATED -> PENDING | FAILED), settle (PENDING -> COMPLETED | FAILED). */
export type TransferStep = 'submit' | 'settle';

/** The input of a step task (the execution's input carries `transferId`). */
export interface TransferStepInput {
  step: TransferStep;
  transferId: string;
}

/**
 * A step's answer: the transfer's status after the step, and after `submit` of a PENDING transfer
 * when the rail settles it (`settleAt`, ISO 8601 with milliseconds; the workflow's Wait state
 * waits until then). A step that finds its work done (a test helper advanced the transfer, a
 * cancel won) answers the status as it is; the workflow then ends.
 */
export interface TransferStepOutput {
  transferId: string;
  status: 'INITIATED' | 'PENDING' | 'COMPLETED' | 'FAILED' | 'CANCELLED';
  settleAt?: string;
}

/**
 * The settlement rail (ACH, wire, FedNow, a USDC custodian) behind one port, so a real provider
 * slots in where the sandbox rail is (docs/api.md "Rails"). Both calls are safe to repeat: the
 * workflow retries a step whose answer was lost.
 */
export interface TransferRail {
  /**
   * Hands the transfer to the rail. Rejected: the transfer fails at once (INITIATED -> FAILED). The
   * transfer's `id` is the rail's idempotency key: the workflow's retries and the reconciler may
   * submit the same transfer twice, and the provider must answer the first submission again.
   */
  submit(
    transfer: RailTransfer,
  ): Promise<{ accepted: true; reference: string; settleAt: string } | { accepted: false; reason: string }>;
  /** Where the submitted transfer stands: settled, failed (funds come back), or not yet (with when to ask again). */
  settlement(
    transfer: SubmittedRailTransfer,
  ): Promise<{ outcome: 'SETTLED' } | { outcome: 'FAILED'; reason: string } | { outcome: 'PENDING'; settleAt: string }>;
  /**
   * Stops a submitted transfer before it settles. Refused once the rail can no longer stop it (the
   * cancel then answers 409). A provider that confirms a cancel must answer its `settlement` FAILED
   * from then on: the service commits CANCELLED only after this confirmation, and the settle step
   * that races it loses on the transfer's state condition.
   */
  cancel(transfer: SubmittedRailTransfer): Promise<{ cancelled: true } | { cancelled: false; reason: string }>;
}

export type SubmittedRailTransfer = RailTransfer & { reference: string; settleAt: string };

/** What a rail is told: the transfer's facts and its outside end (an account number opened from its seal only here). */
export interface RailTransfer {
  id: string;
  environment: 'SANDBOX' | 'PRODUCTION';
  direction: 'DEPOSIT' | 'WITHDRAWAL';
  rail: 'ACH' | 'WIRE' | 'FEDNOW' | 'USDC';
  amount: string;
  currency: 'USD' | 'USDC';
  /** A bank's account number is given at submission only; settlement and cancel carry its last 4 digits (the rail goes by its reference). */
  counterparty:
    | { kind: 'bank'; routingNumber?: string; accountNumber?: string; last4?: string; counterpartyId?: string }
    | { kind: 'usdc'; address: string; chain: string };
}

/** What a transfer writes, besides its movements, audit entries, events and idempotency answer. */
export type TransferChange =
  /** A new transfer (its id never seen before). */
  | { type: 'putTransfer'; transfer: Transfer }
  /** A state change by the state table: conditioned on the trigger's `from` states (INVALID_STATE otherwise). */
  | { type: 'transitionTransfer'; transferId: string; trigger: TransferTrigger; set: Partial<Transfer> }
  /** The clearing of a completed ACH deposit ends: PENDING -> AVAILABLE, once (nothing is left to reconcile). */
  | { type: 'releaseClearing'; transferId: string }
  /** The reconciler looked at a transfer that is still where it was: it looks again at `reconcileAt`. */
  | { type: 'deferReconcile'; transferId: string; status: TransferStatus; reconcileAt: string };

export interface TransferFilter {
  direction?: TransferDirection | undefined;
  status?: TransferStatus | undefined;
}

export interface TransferStore
  extends
    BankAccountReader,
    WalletReader,
    WalletSnapshotReader,
    Omit<IdempotencyStore, 'commit'>,
    ChangeCommitter<TransferChange | PostingChange | IdempotencyChange | AuditChange | LinkRiderChange> {
  getTransfer(transferId: string): Promise<Transfer | undefined>;
  /** Transfers whose `reconcileAt` is before `now`, oldest first. */
  listDueTransfers(now: Date, limit: number): Promise<Transfer[]>;
  listTransfers(scope: OrganizationScope, filter: TransferFilter, page: PageRequest): Promise<Page<Transfer>>;
  /** The transfers of the organization environment that a wallet pays or receives (internal transfers from both sides). */
  listWalletTransfers(
    scope: OrganizationScope,
    walletId: string,
    filter: TransferFilter,
    page: PageRequest,
  ): Promise<Page<Transfer>>;
}
