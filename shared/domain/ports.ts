import type { Change } from './changes.js';
import type { Clock } from './clock.js';
import type { IdGenerator } from './ids.js';
import type { Environment, Permission } from './tenancy.js';
import type { ApiKey, AuditEntry, Approval, ApprovalStatus, IdempotencyRecord, MerchantProfile, Organization, Page, PageRequest, PaymentStatus, StatementEntry, Transaction, Wallet } from './types.js';
import type { Policy, SpendCounter } from './policies/policy-types.js';

/** The paying side of a payment in one read: the wallet, its policies and its spend counters. */
export interface WalletSnapshot {
  wallet: Wallet;
  policies: Policy[];
  counters: SpendCounter[];
}

export interface TransactionFilter {
  walletId?: string | undefined;
  status?: PaymentStatus | undefined;
}

export interface ApprovalFilter {
  walletId?: string | undefined;
  status?: ApprovalStatus | undefined;
}

/** Filters of GET /v1/audit-logs; each combination is served by one index query. */
export interface AuditQuery {
  action?: string | undefined;
  resourceId?: string | undefined;
  actorId?: string | undefined;
  /** Set for wallet-scoped keys: only entries of that wallet. */
  walletId?: string | undefined;
  /** Inclusive ISO 8601 bounds. */
  from?: string | undefined;
  to?: string | undefined;
}

/** A statement page: entries newest first; `lastKey` carries the running balance for the next page. */
export interface StatementPage {
  items: StatementEntry[];
  lastKey?: Record<string, unknown>;
}

/** Reads and the one write path (commit) that services use; implemented in shared/persistence. */
export interface Store {
  getOrganization(organizationId: string): Promise<Organization | undefined>;
  getMainWalletId(organizationId: string, environment: Environment): Promise<string | undefined>;
  getWallet(walletId: string): Promise<Wallet | undefined>;
  listWallets(organizationId: string, environment: Environment, page: PageRequest): Promise<Page<Wallet>>;
  getApiKeyById(keyId: string): Promise<ApiKey | undefined>;
  /** AGENT wallets of an organization and environment, newest first; deleted ones only when asked. */
  listAgents(organizationId: string, environment: Environment, includeDeleted: boolean, page: PageRequest): Promise<Page<Wallet>>;
  /** Keys of one organization and environment (agent keys included), newest first. */
  listApiKeys(organizationId: string, environment: Environment, page: PageRequest): Promise<Page<ApiKey>>;
  getWalletSnapshot(walletId: string): Promise<WalletSnapshot | undefined>;
  getStatement(walletId: string, page: PageRequest): Promise<StatementPage>;
  getTransaction(transactionId: string): Promise<Transaction | undefined>;
  listTransactions(organizationId: string, environment: Environment, filter: TransactionFilter, page: PageRequest): Promise<Page<Transaction>>;
  getIdempotencyRecord(organizationId: string, environment: Environment, key: string): Promise<IdempotencyRecord | undefined>;
  /** Saves the response of an in-flight idempotency record (written in the movement's transaction). */
  completeIdempotencyRecord(organizationId: string, environment: Environment, key: string, status: number, body: string): Promise<void>;
  getPolicy(policyId: string): Promise<Policy | undefined>;
  listPolicies(organizationId: string, environment: Environment, walletId: string | undefined, page: PageRequest): Promise<Page<Policy>>;
  getApproval(approvalId: string): Promise<Approval | undefined>;
  listApprovals(organizationId: string, environment: Environment, filter: ApprovalFilter, page: PageRequest): Promise<Page<Approval>>;
  /** Pending approvals whose expiry has passed, oldest first. */
  listExpiredApprovals(now: Date, limit: number): Promise<Approval[]>;
  getMerchant(environment: Environment, domain: string): Promise<MerchantProfile | undefined>;
  /** Compliance facts about keys (an operator report: it scans the key items). */
  keyHygiene(now: Date): Promise<{ activeKeysWithoutPermissions: number; expiredActiveKeys: number }>;
  /** Up to `limit` stored webhook secrets, as stored. */
  sampleWebhookSecrets(limit: number): Promise<string[]>;
  listAuditEntries(organizationId: string, environment: Environment, query: AuditQuery, page: PageRequest): Promise<Page<AuditEntry>>;
  /** Authentication: one consistent read by the key's SHA-256 hash. */
  getApiKeyByHash(hash: string): Promise<ApiKey | undefined>;
  /** Records lastUsedAt unless it was recorded less than `minIntervalMs` ago (at most one write a minute). */
  touchApiKey(hash: string, now: Date, minIntervalMs: number): Promise<void>;
  /** A service secret kept in the table (created once, on first use). */
  getOrCreateSecret(name: string, create: () => string): Promise<string>;
  /** Writes every change in one transaction; all or nothing. */
  commit(changes: Change[]): Promise<void>;
}

/** A newly issued API key: the raw value goes to the caller once, only the hash is stored. */
export interface IssuedKey {
  raw: string;
  hash: string;
  prefix: string;
  last4: string;
}

export type KeyKind = 'SANDBOX' | 'PRODUCTION' | 'OPERATOR';
export type KeyIssuer = (kind: KeyKind) => IssuedKey;

export interface ServiceDeps {
  store: Store;
  clock: Clock;
  ids: IdGenerator;
  issueKey: KeyIssuer;
  limits: { walletsPerEnvironment: number; sandboxFundingMax: string };
  /** Sandbox durations are divided by it (approval expiry, settlement waits). */
  timeScale: number;
}

export type { Permission };
