import type { AuditChange } from '../audit/ports.js';
import type { ChangeCommitter } from '../change-committer.js';
import type { IdempotencyChange, IdempotencyStore } from '../idempotency/ports.js';
import type { PostingChange } from '../ledger/posting.js';
import type { MainWalletReader } from '../organizations/ports.js';
import type { TransactionReader } from '../payments/ports.js';
import type { ServiceDeps } from '../ports.js';
import type { OrganizationScope } from '../tenancy.js';
import type { WalletReader } from '../wallets/ports.js';
import type { DisputeChange } from './changes.js';
import type { DisputeStatus, Dispute, FundsRefusals } from './types.js';

export type { DisputeChange } from './changes.js';

/**
 * The deadline workflow (lib/workflows/dispute-workflow.ts), started once per dispute right after
 * its creation committed, named after the dispute id, with `{disputeId, respondBy}` as input.
 * Starting it twice is harmless (one execution per name).
 */
export interface DisputeWorkflows {
  start(dispute: Pick<Dispute, 'id' | 'respondBy'>): Promise<void>;
}

/** The workflow's one step: the `dispute-steps` worker's input. */
export interface DisputeStepInput {
  step: 'deadline';
  disputeId: string;
}

/**
 * Its answer: the dispute's status after the step. OPEN with `respondBy` means the deadline has not
 * come yet (the step ran early): the workflow waits until `respondBy` and asks again. Any other
 * status ends the workflow (the step resolved it RESOLVED_AGENT, or a response or resolution came first).
 */
export interface DisputeStepOutput {
  status: DisputeStatus;
  respondBy?: string;
}

/** What the dispute-steps worker calls (the disputes service implements it). */
export interface DisputeDeadline {
  /**
   * At or after `respondBy`, an OPEN dispute lapses to RESOLVED_AGENT (actor SYSTEM), its money paid
   * to the initiator's wallet in the same transaction; otherwise nothing changes. Idempotent: a dispute
   * found RESPONDED or ended answers its status. An unknown id throws (a bug: the execution fails).
   */
  runDeadline(disputeId: string, now?: Date): Promise<DisputeStepOutput>;
}

/** Which of a caller's disputes GET /v1/disputes reads: the organization's, or (an agent key) its wallet's. */
export interface DisputeListFilter {
  walletId?: string | undefined;
  status?: DisputeStatus | undefined;
}

/**
 * What disputes read and write: the dispute (with the disputed payment's mark), the payment, the
 * wallets the money moves between, a main wallet (where money owed to a closed wallet goes), the
 * postings, audit entries, events and the key's answer.
 */
export interface DisputeStore
  extends
    WalletReader,
    MainWalletReader,
    TransactionReader,
    Omit<IdempotencyStore, 'commit'>,
    ChangeCommitter<DisputeChange | PostingChange | IdempotencyChange | AuditChange> {
  getDispute(disputeId: string): Promise<Dispute | undefined>;
  /** The refusals for funds of openings of this payment (dispute-rules.ts FundsRefusals). */
  getFundsRefusals(transactionId: string): Promise<FundsRefusals | undefined>;
  /**
   * The newest `count` disputes of an organization environment, as initiator or respondent (with a
   * wallet: those whose paying or receiving wallet it is), newest first (`createdAt`, then id).
   */
  listDisputes(scope: OrganizationScope, filter: DisputeListFilter, count: number): Promise<Dispute[]>;
}

export interface DisputeServiceDeps extends ServiceDeps<DisputeStore> {
  /** Starts the deadline workflow once the opening committed (absent: nothing starts; the deadline still applies on respond). */
  workflows?: DisputeWorkflows | undefined;
  log: Pick<Console, 'error'>;
}
