import type { ApprovalChange } from '../approvals/changes.js';
import type { AuditChange } from '../audit/ports.js';
import type { ChangeCommitter } from '../change-committer.js';
import type { IdempotencyChange, IdempotencyStore } from '../idempotency/ports.js';
import type { PostingChange } from '../ledger/posting.js';
import type { OrganizationScope } from '../tenancy.js';
import type { Page, PageRequest } from '../types.js';
import type { WalletReader, WalletSnapshotReader } from '../wallets/ports.js';
import type { PaymentLinkChange } from './changes.js';
import type { PaymentLink, PaymentLinkStatus } from './types.js';

export type { PaymentLinkChange } from './changes.js';

export interface PaymentLinkFilter {
  walletId?: string | undefined;
  status?: PaymentLinkStatus | undefined;
}

/**
 * What payment links read and write: the link with its slug's uniqueness item, the hold and its
 * capture or void (postings), an approval queued at creation, audit entries, events and claim answers.
 */
export interface PaymentLinkStore
  extends
    WalletReader,
    WalletSnapshotReader,
    Omit<IdempotencyStore, 'commit'>,
    ChangeCommitter<PaymentLinkChange | PostingChange | ApprovalChange | IdempotencyChange | AuditChange> {
  getPaymentLink(linkId: string): Promise<PaymentLink | undefined>;
  /** The link a slug names (through its uniqueness item), or undefined. */
  getPaymentLinkBySlug(slug: string): Promise<PaymentLink | undefined>;
  /**
   * Up to `limit` ACTIVE or PENDING_APPROVAL links whose `expiresAt` is before `now`, of every
   * organization, oldest `expiresAt` first (the expiry sweep's safety net; an index, may lag a write).
   */
  listExpiringPaymentLinks(now: Date, limit: number): Promise<PaymentLink[]>;
  /** Newest first; `walletId` reads the wallet's index, `status` filters. */
  listPaymentLinks(scope: OrganizationScope, filter: PaymentLinkFilter, page: PageRequest): Promise<Page<PaymentLink>>;
}
