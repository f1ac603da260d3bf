import type { Change } from './changes.js';
import type { Clock } from './clock.js';
import type { IdGenerator } from './ids.js';
import type { Environment, Permission } from './tenancy.js';
import type { ApiKey, Organization, Page, PageRequest, Wallet } from './types.js';

/** Reads and the one write path (commit) that services use; implemented in shared/persistence. */
export interface Store {
  getOrganization(organizationId: string): Promise<Organization | undefined>;
  getMainWalletId(organizationId: string, environment: Environment): Promise<string | undefined>;
  getWallet(walletId: string): Promise<Wallet | undefined>;
  listWallets(organizationId: string, environment: Environment, page: PageRequest): Promise<Page<Wallet>>;
  getApiKeyById(keyId: string): Promise<ApiKey | undefined>;
  listApiKeys(organizationId: string, page: PageRequest): Promise<Page<ApiKey>>;
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
}

export type { Permission };
