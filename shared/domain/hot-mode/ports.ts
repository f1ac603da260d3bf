import type { AuditChange } from '../audit/ports.js';
import type { ChangeCommitter } from '../change-committer.js';
import type { HotConfig } from '../ledger/hot/hot-types.js';
import type { Wallet } from '../types.js';
import type { WalletReader } from '../wallets/ports.js';
import type { ConflictCount, HotModeSizing } from './hot-mode-rules.js';

/**
 * The keeper's moves the hot-mode edges need (part keeper: shared/persistence/hot/). Each is
 * idempotent: promoting a hot wallet, demoting a cooling one, folding a folded partition or
 * keeping a wallet with nothing to do changes nothing.
 */
export interface HotModeMoves {
  /** Registers the wallet with the scheduled keeper, creates the sub-items, then sets `hot`: the config after the call. */
  promote(wallet: Wallet, sizing: HotModeSizing): Promise<HotConfig>;
  /**
   * Starts a demotion: `hot.state` COOLING, routing sends everything to main; the scheduled keeper
   * finishes it after the window (fold, drain, remove `hot`). Answers the config after the call.
   */
  demote(walletId: string): Promise<HotConfig | undefined>;
  /** Folds the named credit partitions of a wallet (inbox -> accumulator -> main; a closed wallet's are bounced to their payers). */
  foldInbox(walletId: string, partitions: readonly number[]): Promise<void>;
  /** One keeper run over a wallet: lanes, quotas, rollover, the end of a demotion. */
  keep(walletId: string, now: Date): Promise<void>;
}

export interface HotModeReader {
  /** The wallet's `hot` as stored on main (strongly consistent), undefined when cold. */
  getHotConfig(walletId: string): Promise<HotConfig | undefined>;
  /**
   * A closed wallet (hot once) with inbox items not bounced yet: payments that landed after its close
   * and whose bounce failed (a payer paused meanwhile). The scheduled keeper keeps trying them.
   */
  hasStragglers(walletId: string): Promise<boolean>;
}

/** The scheduled keeper's bookkeeping: the wallets it visits and the conflicts the committer counted. */
export interface HotModeBookkeeping {
  registeredWallets(): Promise<{ walletId: string; registeredAt: string }[]>;
  unregister(walletId: string): Promise<void>;
  conflictsOf(minute: string): Promise<ConflictCount[]>;
}

export interface HotModeStore
  extends WalletReader, HotModeReader, HotModeMoves, HotModeBookkeeping, ChangeCommitter<AuditChange> {}
