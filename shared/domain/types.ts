import type Big from 'big.js';
import type { Currency } from './money.js';
import type { Environment, KeyPermission } from './tenancy.js';

/** Domain records. Persistence maps them to items (shared/persistence/entities); HTTP to JSON. */

export type KybStatus = 'NOT_SUBMITTED' | 'PENDING' | 'VERIFIED' | 'REJECTED';

export interface Organization {
  id: string;
  name: string;
  createdAt: string;
  kybStatus: KybStatus;
  kyb?: { legalName: string; taxId: string; address: Record<string, string>; submittedAt: string };
  tosAcceptance?: { tosVersion: string; ipAddress: string; acceptedAt: string };
  billingMethod?: { type: 'card'; last4: string; addedAt: string };
  productionActivatedAt?: string;
}

/** Wallet status transitions (interface-spec 3.1): ACTIVE <-> FROZEN by pause/resume; delete freezes for good. */
export type WalletStatus = 'ACTIVE' | 'FROZEN';
export type WalletType = 'ORG' | 'AGENT';

export interface Wallet {
  id: string;
  organizationId: string;
  environment: Environment;
  name: string;
  agentName?: string;
  walletType: WalletType;
  isMain: boolean;
  status: WalletStatus;
  balance: Big;
  pendingBalance: Big;
  heldBalance: Big;
  currency: Currency;
  createdAt: string;
  deletedAt?: string;
  /** Agent wallets: the one active scoped key (rotation swaps it under a condition). */
  activeKeyId?: string;
}

export type ApiKeyStatus = 'ACTIVE' | 'REVOKED';

export interface ApiKey {
  id: string;
  hash: string;
  name: string;
  prefix: string;
  last4: string;
  organizationId: string | null;
  environment: Environment | null;
  permissions: KeyPermission[];
  walletId: string | null;
  status: ApiKeyStatus;
  createdAt: string;
  expiresAt?: string;
  revokedAt?: string;
  lastUsedAt?: string;
  /** The role of the dashboard user who minted it (directly or through a key they minted): see Principal.userRole. */
  createdByUserRole?: string;
}

export type AuditActorType = 'API_KEY' | 'USER' | 'SYSTEM';

export interface AuditEntry {
  id: string;
  organizationId: string;
  environment: Environment;
  actorType: AuditActorType;
  actorId: string;
  action: string;
  resource: string;
  resourceId: string;
  metadata: Record<string, unknown>;
  ipAddress: string;
  createdAt: string;
  /** The wallet the action concerns, so wallet-scoped keys can see their own entries. */
  walletId?: string;
}

export interface OutboxEvent {
  id: string;
  type: string;
  organizationId: string;
  environment: Environment;
  createdAt: string;
  data: Record<string, unknown>;
  /**
   * Internal metadata, never presented (the events API and webhook bodies pick their fields): the
   * request id of the request that caused the event (shared/observability/scope.ts), carried from
   * the journal record or outbox item to the bus, the delivery and its log lines.
   */
  correlationId?: string;
}

export interface Page<T> {
  items: T[];
  /** Opaque continuation from the store; the HTTP layer signs it into a cursor. */
  lastKey?: Record<string, unknown>;
  /**
   * Whether more items are there now. Absent: exactly when `lastKey` is set. A feed (events in
   * visible order) always answers a `lastKey`, the position to poll from, and `more` beside it.
   */
  more?: boolean;
}

export interface PageRequest {
  limit: number;
  startKey?: Record<string, unknown>;
}

/** Payment statuses (decisions.md section 3): QUEUED -> POSTED | REJECTED | FAILED; POSTED -> REVERSED. */
export const PAYMENT_STATUSES = ['POSTED', 'QUEUED', 'REJECTED', 'FAILED', 'REVERSED'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export interface Transaction {
  id: string;
  type: 'FUNDING' | 'PAYMENT' | 'REVERSAL' | 'BUDGET_ADJUSTMENT' | 'SWEEP';
  organizationId: string;
  environment: 'SANDBOX' | 'PRODUCTION';
  from: string;
  to: string;
  /** Organization that owns the receiving wallet (may differ from the payer's). */
  payeeOrganizationId?: string;
  amount: string;
  fee: string;
  currency: 'USD';
  status: PaymentStatus;
  description?: string;
  idempotencyKey?: string;
  merchant?: string;
  approvalId?: string;
  reversalOf?: string;
  reversedBy?: string;
  failureCode?: string;
  requestedByKeyId?: string;
  /** The invoice this payment pays (`POST /v1/invoices/pay/{slug}/wallet`; payments/payment-rider.ts). */
  invoiceId?: string;
  /** The dispute of this payment (shared/domain/disputes/): set once, when it is opened; the payment can no longer be reversed. */
  disputeId?: string;
  createdAt: string;
  postedAt?: string;
}

/** Approval states: PENDING -> APPROVED (posted) | REJECTED | EXPIRED | FAILED (could not post). */
export const APPROVAL_STATUSES = ['PENDING', 'APPROVED', 'REJECTED', 'EXPIRED', 'FAILED'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

export interface Approval {
  id: string;
  organizationId: string;
  environment: 'SANDBOX' | 'PRODUCTION';
  walletId: string;
  status: ApprovalStatus;
  payment: { from: string; to: string; amount: string; description?: string; merchant?: string };
  transactionId: string;
  /** A payment link queued for approval (its hold taken; `transactionId` is that hold): approving makes it ACTIVE. */
  paymentLinkId?: string;
  reason: string;
  requestedByKeyId: string;
  failureCode?: string;
  note?: string;
  rejectionReason?: string;
  createdAt: string;
  decidedAt?: string;
  decidedBy?: string;
  expiresAt: string;
}

export interface MerchantProfile {
  domain: string;
  environment: 'SANDBOX' | 'PRODUCTION';
  organizationId: string;
  displayName: string;
  walletId: string;
  closedLoop: boolean;
  status: 'ACTIVE' | 'SUSPENDED';
  createdAt: string;
  updatedAt: string;
}

/** A stored first response of an idempotent request (kept 24 hours). */
export interface IdempotencyRecord {
  organizationId: string;
  environment: 'SANDBOX' | 'PRODUCTION';
  key: string;
  fingerprint: string;
  status: number;
  body: string;
  createdAt: string;
  expiresAtEpochS: number;
}

/** One line of a wallet statement, newest first, with the balance after the entry. */
export interface StatementEntry {
  transactionId: string;
  type: string;
  amount: import('big.js').Big;
  balanceAfter: import('big.js').Big;
  description?: string;
  createdAt: string;
}
