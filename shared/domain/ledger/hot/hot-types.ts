import type Big from 'big.js';
import type { Period } from '../../policies/policy-types.js';
import type { Environment } from '../../tenancy.js';

/**
 * Hot mode of one wallet (docs/architecture.md "Hot wallets"; decisions.md section 13). A hot wallet
 * is its main item (the `WALLET` item of today, carrying `hot`), G credit partitions (an append-only
 * inbox of conflict-free items with one accumulator each, folded into main by the keeper) and M debit
 * lanes (escrowed slices of the available funds and of each limited period's quota). Cold wallets
 * have no `hot` and are written exactly as before.
 */

/** HOT: routed to partitions and lanes. COOLING: being demoted (routing sends everything to main; the keeper folds and drains, then removes `hot`). */
export type HotState = 'HOT' | 'COOLING';

export interface HotConfig {
  state: HotState;
  /** G: credit partitions 0..G-1 (only ever grows while HOT). */
  partitions: number;
  /** M: debit lanes 0..M-1. */
  lanes: number;
  /** When the wallet became hot (ISO). */
  since: string;
  /** When the demotion began (ISO, COOLING only): the keeper finishes it HOT_SETTLE_MS later (keeper-plan.ts). */
  coolingSince?: string;
}

/** How long a freeze, close or demotion waits for payments routed from a stale cache (cache TTL + the longest Lambda + margin). */
export const HOT_SETTLE_MS = 60_000;

/** Where one part of a wallet's movement is written. */
export type SubItem = { kind: 'main' } | { kind: 'inbox'; partition: number } | { kind: 'lane'; lane: number };

/** The limits hard bounds: a slow-path transaction holds the journal, main, every lane and a payee (<= 100 items). */
export const MAX_HOT_PARTITIONS = 64;
export const MAX_HOT_LANES = 64;

/** One credit partition as read: its accumulator and the inbox items not folded yet. */
export interface CreditPartitionState {
  partition: number;
  /** Everything ever folded from the inbox into the accumulator. */
  credited: Big;
  seq: number;
  entryCount: number;
  /** Credits of available money only (a clearing deposit's pending credit goes to main). */
  inbox: { transactionId: string; amount: Big; createdAt: string }[];
}

/** One debit lane as read. */
export interface LaneState {
  lane: number;
  status: 'ACTIVE' | 'FROZEN';
  environment: Environment;
  /** The main item's policyVersion the lane's quotas were granted under. */
  policyVersion: number;
  available: Big;
  /** Period key (`DAY#2026-11-28`) -> quota still granted to the lane. */
  quota: Record<string, Big>;
  /** Period key -> spend counted on the lane. */
  spend: Record<string, Big>;
  seq: number;
  entryCount: number;
}

/** Main's share of a hot wallet, beside the wallet fields it always had. */
export interface HotMainState {
  hot: HotConfig;
  /** Bumped by every keeper move that touches main (the seqlock of an exact read). */
  seq: number;
  /** Partition -> its accumulator's `credited` already added to main's balance. */
  folded: Record<number, Big>;
  /** Period key -> the limit's quota not granted to any lane. */
  ungranted: Record<string, Big>;
  /** Bumped by every policy change of the wallet (cold or hot): a lane granted under another version refuses limited debits. */
  policyVersion: number;
}

/** Everything of a hot wallet at one instant (a seqlocked read): what exact balances and the invariants are computed from. */
export interface HotWalletParts {
  walletId: string;
  main: HotMainState & {
    balance: Big;
    heldBalance: Big;
    pendingBalance: Big;
    spend: Record<string, Big>;
    status: string;
    deletedAt?: string;
    /** Postings main took part in (a statement read's check that nothing landed meanwhile). */
    entryCount?: number;
  };
  partitions: CreditPartitionState[];
  lanes: LaneState[];
}

/** A period key as the hot items name it (`DAY#2026-11-28`), the same as the wallet's `spend#<PERIOD>#<key>` suffix. */
export const periodKeyOf = (period: Period, periodKey: string): string => `${period}#${periodKey}`;
