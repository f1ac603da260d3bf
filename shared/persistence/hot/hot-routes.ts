import type Big from 'big.js';
import type { HotConfig, HotWalletParts } from '../../domain/ledger/hot/hot-types.js';
import type { Environment } from '../../domain/tenancy.js';
import { readInt } from '../client.js';
import type { Item } from '../item.js';

/**
 * What the posting writer needs to route a movement of a hot wallet, and the internal signals its
 * condition mappers raise so the committer re-plans (docs/architecture.md "Hot wallets"). A leaf
 * module: the writers, the committer and the cache all import it, it imports none of them.
 */

/** A hot wallet as the routing knows it: main's `hot` and what a payee's credit is checked against. */
export interface HotWalletEntry {
  hot: HotConfig;
  status: string;
  environment: Environment;
  deletedAt?: string;
}

/** The slow path's exact amounts for one paying hot wallet, sized from an exact read (hot-slow-path.ts). */
export interface SlowSplit {
  /** Available money taken from main's balance. */
  main: Big;
  lanes: { lane: number; available: Big; quota: Record<string, Big> }[];
  /**
   * Per limited period key: quota taken from main's `ungranted#k`; `initial` when main has none yet or
   * holds the old limit's (a re-sync is due): set to initial − take, not added, on condition that main
   * still holds `replaces` (absent when it had none).
   */
  ungranted: Record<string, { take: Big; initial?: Big; replaces?: Big }>;
  /** main's policyVersion as read: the version the lanes' quotas must have been granted under. */
  policyVersion: number;
}

/** The routes of one attempt of a commit: which wallets are hot, which lane a debit tries, the slow path's splits. */
export interface PostingRoutes {
  hotOf(walletId: string): HotWalletEntry | undefined;
  laneOf(walletId: string, transactionId: string): number;
  splitOf(walletId: string): SlowSplit | undefined;
  /** The close of a hot wallet, prepared (hot-close.ts): undefined until the committer has prepared it. */
  closeOf?(walletId: string): HotCloseRead | undefined;
}

/**
 * A hot wallet ready to close (hot-close.ts prepareHotClose): main and every lane frozen, the lanes
 * drained into main, every credit folded; the close's transaction is guarded on what was read here.
 */
export interface HotCloseRead {
  /** main's seq as read (every keeper move and every lane drain bumps it). */
  mainSeq: number;
  /** main's balance as read: the wallet's whole money (lanes empty, accumulators folded). */
  balance: Big;
  /** Each credit partition with main's folded#g as read: the close requires its accumulator's credited equal to it. */
  partitions: { partition: number; folded: Big }[];
}

/** What every writer receives beside its change (only the posting writer reads it). */
export interface WriteContext {
  routes?: PostingRoutes;
}

/** The entry of a main item as read, or undefined when the wallet is cold (no `hot`). */
export function hotEntryOf(item: Item | undefined): HotWalletEntry | undefined {
  const hot = item?.hot as Record<string, unknown> | undefined;
  if (!item || !hot || typeof hot !== 'object') return undefined;
  return {
    hot: {
      state: hot.state === 'COOLING' ? 'COOLING' : 'HOT',
      partitions: readInt(hot.partitions),
      lanes: readInt(hot.lanes),
      since: String(hot.since),
    },
    status: String(item.status),
    environment: item.environment as Environment,
    ...(typeof item.deletedAt === 'string' ? { deletedAt: item.deletedAt } : {}),
  };
}

/**
 * A cold route met a hot wallet (or a hot route a cold one): the main item as it was, so the
 * committer caches what it says and plans again. Never reaches a client.
 */
export class HotRoutingStale extends Error {
  constructor(
    readonly walletId: string,
    readonly item: Item | undefined,
  ) {
    super(`hot routing of wallet ${walletId} was stale`);
    this.name = 'HotRoutingStale';
  }
}

/** A lane could not take a debit (funds, quota, version, frozen): the next lane, then the slow path. */
export class LaneRefused extends Error {
  constructor(
    readonly walletId: string,
    readonly lane: number,
  ) {
    super(`lane ${lane} of wallet ${walletId} refused the debit`);
    this.name = 'LaneRefused';
  }
}

/** A slow-path condition failed because the wallet's items moved since the exact read: read again. */
export class HotMoved extends Error {
  constructor(readonly walletId: string) {
    super(`wallet ${walletId} moved during the slow path`);
    this.name = 'HotMoved';
  }
}

/**
 * A close met a hot wallet not prepared for it (or whose items moved since): the committer freezes
 * and drains it, folds it and reads it (hot-close.ts), then plans again. Never reaches a client.
 */
export class HotCloseDue extends Error {
  constructor(
    readonly walletId: string,
    readonly expectedBalance: Big,
    readonly expectedActiveKeyId: string | undefined,
  ) {
    super(`wallet ${walletId} must be prepared for its close`);
    this.name = 'HotCloseDue';
  }
}

/**
 * The keeper's reads the slow path needs (part keeper: shared/persistence/hot/): the seqlocked exact
 * read of design 2.4 and an inline fold of every credit partition into main.
 */
export interface HotWalletReads {
  readHotWallet(walletId: string): Promise<HotWalletParts | undefined>;
  foldAll(walletId: string): Promise<void>;
}
