import type { AuditChange } from '../audit/ports.js';
import type { ChangeCommitter } from '../changes.js';
import type { PostingChange } from '../ledger/posting.js';
import type { PaymentChange } from '../payments/ports.js';
import type { TransactionReader } from '../payments/ports.js';
import type { Environment } from '../tenancy.js';
import type { Approval, ApprovalStatus, Page, PageRequest } from '../types.js';
import type { WalletSnapshotReader } from '../wallets/ports.js';
import type { ApprovalTrigger } from './approval-states.js';

export type ApprovalChange =
  | { type: 'createApproval'; approval: Approval }
  /** Decides an approval by a trigger of APPROVAL_STATES; a second decision fails with INVALID_STATE. */
  | { type: 'decideApproval'; approval: Approval; trigger: ApprovalTrigger };

export interface ApprovalFilter {
  walletId?: string | undefined;
  status?: ApprovalStatus | undefined;
}

export interface ApprovalStore extends TransactionReader, WalletSnapshotReader, ChangeCommitter<ApprovalChange | PaymentChange | PostingChange | AuditChange> {
  getApproval(approvalId: string): Promise<Approval | undefined>;
  listApprovals(organizationId: string, environment: Environment, filter: ApprovalFilter, page: PageRequest): Promise<Page<Approval>>;
  /** Pending approvals whose expiry has passed, oldest first. */
  listExpiredApprovals(now: Date, limit: number): Promise<Approval[]>;
}
