import type { AuditChange } from '../audit/ports.js';
import type { ChangeCommitter } from '../change-committer.js';
import type { PostingChange } from '../ledger/posting.js';
import type { PaymentChange } from '../payments/ports.js';
import type { TransactionReader } from '../payments/ports.js';
import type { RiderChange } from '../payments/payment-rider.js';
import type { Environment } from '../tenancy.js';
import type { Approval, ApprovalStatus, Page, PageRequest } from '../types.js';
import type { WalletSnapshotReader } from '../wallets/ports.js';
import type { SubjectChange } from './approval-subjects.js';
import type { ApprovalChange } from './changes.js';

export interface ApprovalFilter {
  walletId?: string | undefined;
  status?: ApprovalStatus | undefined;
}

export interface ApprovalStore
  extends
    TransactionReader,
    WalletSnapshotReader,
    ChangeCommitter<ApprovalChange | PaymentChange | PostingChange | AuditChange | RiderChange | SubjectChange> {
  getApproval(approvalId: string): Promise<Approval | undefined>;
  listApprovals(
    organizationId: string,
    environment: Environment,
    filter: ApprovalFilter,
    page: PageRequest,
  ): Promise<Page<Approval>>;
  /** Pending approvals whose expiry has passed, oldest first. */
  listExpiredApprovals(now: Date, limit: number): Promise<Approval[]>;
}
