import type Big from 'big.js';
import type { AuditChange } from '../audit/ports.js';
import type { ChangeCommitter } from '../change-committer.js';
import type { IdempotencyChange, IdempotencyCompleter, IdempotencyStore } from '../idempotency/ports.js';
import type { PostingChange } from '../ledger/posting.js';
import type { Policy, SpendCounter } from '../policies/policy-types.js';
import type { Environment } from '../tenancy.js';
import type { Page, PageRequest, StatementEntry, Wallet } from '../types.js';
import type { WalletTrigger } from './wallet-states.js';

export type WalletChange =
  /** Counts a new wallet against the environment limit (WALLET_LIMIT_EXCEEDED when reached). */
  | { type: 'reserveWalletSlot'; organizationId: string; environment: Environment; limit: number }
  | { type: 'createWallet'; wallet: Wallet }
  /**
   * Changes a wallet's fields under conditions: with a `trigger`, the wallet must be in one of
   * its `from` states (WALLET_STATES); without one (a field update such as key rotation), in any
   * state but closed. A closed wallet never changes again.
   */
  | {
      type: 'updateWallet';
      walletId: string;
      trigger?: WalletTrigger;
      set: Partial<Pick<Wallet, 'status' | 'deletedAt' | 'activeKeyId'>>;
      expectedActiveKeyId?: string;
      expectedBalance?: Big;
    };

export interface WalletReader {
  getWallet(walletId: string): Promise<Wallet | undefined>;
}

/** The paying side of a payment in one read: the wallet, its policies and its spend (kept on the wallet item). */
export interface WalletSnapshot {
  wallet: Wallet;
  policies: Policy[];
  counters: SpendCounter[];
  /** The wallet's policyVersion (bumped by every policy change; 0 before any): what its limits were read under. */
  policyVersion?: number;
}

export interface WalletSnapshotReader {
  getWalletSnapshot(walletId: string): Promise<WalletSnapshot | undefined>;
}

/** A statement page: entries newest first; `lastKey` carries the running balance for the next page. */
export interface StatementPage {
  items: StatementEntry[];
  lastKey?: Record<string, unknown>;
}

export interface WalletStore
  extends
    WalletReader,
    Omit<IdempotencyStore, 'commit'>,
    IdempotencyCompleter,
    ChangeCommitter<WalletChange | PostingChange | IdempotencyChange | AuditChange> {
  listWallets(organizationId: string, environment: Environment, page: PageRequest): Promise<Page<Wallet>>;
  getStatement(walletId: string, page: PageRequest): Promise<StatementPage>;
}
