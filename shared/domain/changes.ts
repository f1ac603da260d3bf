import type Big from 'big.js';
import type { Environment } from './tenancy.js';
import type { ApiKey, Approval, AuditEntry, IdempotencyRecord, MerchantProfile, Organization, OutboxEvent, PaymentStatus, Transaction, Wallet } from './types.js';
import type { Policy } from './policies/policy-types.js';
import type { Posting } from './ledger/posting.js';

/**
 * What a service decided to write, as data. The store writes one list of changes in ONE
 * DynamoDB transaction with each change's condition; a failed condition becomes the ApiError the
 * persistence layer maps for that change kind.
 */
export type OrganizationUpdate = Partial<Pick<Organization, 'kybStatus' | 'kyb' | 'tosAcceptance' | 'billingMethod' | 'productionActivatedAt'>>;

export type Change =
  | { type: 'createOrganization'; organization: Organization }
  /**
   * Sets only the named fields, so concurrent activation steps and the operator's KYB decision
   * never overwrite each other; `unless` names a field whose presence (or value) refuses the write.
   */
  | { type: 'updateOrganization'; organizationId: string; set: OrganizationUpdate; unless?: { field: 'productionActivatedAt' } | { field: 'kybStatus'; equals: Organization['kybStatus'] } }
  | { type: 'createEnvironment'; organizationId: string; environment: Environment; mainWalletId: string }
  /** Counts a new wallet against the environment limit (WALLET_LIMIT_EXCEEDED when reached). */
  | { type: 'reserveWalletSlot'; organizationId: string; environment: Environment; limit: number }
  | { type: 'createWallet'; wallet: Wallet }
  | { type: 'createApiKey'; apiKey: ApiKey }
  | { type: 'revokeApiKey'; apiKey: ApiKey; revokedAt: string }
  | { type: 'posting'; posting: Posting }
  /** Fails with IDEMPOTENCY_KEY_IN_USE when the key was taken meanwhile (the caller then replays). */
  | { type: 'idempotency'; record: IdempotencyRecord }
  /** A transaction record without ledger legs (a QUEUED payment). */
  | { type: 'createTransaction'; transaction: Transaction }
  /** Moves a transaction record between statuses; `from` is the required current status. */
  | { type: 'setTransactionStatus'; transactionId: string; from: PaymentStatus; to: PaymentStatus; fields?: Record<string, unknown>; onMismatch: 'REVERSAL_NOT_ALLOWED' | 'INVALID_STATE' }
  | { type: 'putPolicy'; policy: Policy; isNew: boolean }
  | { type: 'createApproval'; approval: Approval }
  /** Decides a PENDING approval; a second decision fails with INVALID_STATE. */
  | { type: 'decideApproval'; approval: Approval }
  /** `expectedStatus`: the status read, so an owner's update never undoes a concurrent suspension. */
  | { type: 'putMerchant'; merchant: MerchantProfile; isNew: boolean; expectedStatus?: MerchantProfile['status'] }
  /**
   * Changes a wallet's status fields under conditions: `from` lists the statuses it may be in;
   * a deleted (closed) wallet never changes again.
   */
  | { type: 'updateWallet'; walletId: string; from: Wallet['status'][]; set: Partial<Pick<Wallet, 'status' | 'deletedAt' | 'activeKeyId'>>; expectedActiveKeyId?: string; expectedBalance?: Big }
  | { type: 'audit'; entry: AuditEntry }
  | { type: 'event'; event: OutboxEvent };
