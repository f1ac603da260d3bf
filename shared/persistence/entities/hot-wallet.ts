import type { ItemKey } from '../item.js';

/**
 * The sub-items of a hot wallet (shared/domain/ledger/hot/hot-types.ts), each in its own partition
 * so no key takes the whole wallet's writes:
 *
 * - credit partition g: `WALLET#<id>#IN#<g>` holding the accumulator (`#ACC`: credited, seq,
 *   entryCount, walletId, environment) and one inbox item per credit not folded yet
 *   (`TXN#<transactionId>`: amount, bucket, walletId, environment, createdAt);
 * - debit lane l: `WALLET#<id>#LANE#<l>` / `LANE` (status, environment, policyVersion, available,
 *   `quota#<PERIOD>#<key>`, `spend#<PERIOD>#<key>`, seq, entryCount).
 *
 * The main item stays `WALLET#<id>` / `WALLET` (entities/wallet.ts) and carries `hot`, `seq`,
 * `folded#<g>`, `ungranted#<PERIOD>#<key>` and `policyVersion`.
 */
export const HOT_ACC_ENTITY = 'HOT_ACC';
export const HOT_INBOX_ENTITY = 'HOT_INBOX';
export const HOT_LANE_ENTITY = 'HOT_LANE';

export const hotKeys = {
  creditPartition: (walletId: string, partition: number) => `WALLET#${walletId}#IN#${partition}`,
  accumulator: (walletId: string, partition: number): ItemKey => ({
    PK: hotKeys.creditPartition(walletId, partition),
    SK: '#ACC',
  }),
  inboxItem: (walletId: string, partition: number, transactionId: string): ItemKey => ({
    PK: hotKeys.creditPartition(walletId, partition),
    SK: `TXN#${transactionId}`,
  }),
  inboxPrefix: 'TXN#',
  lane: (walletId: string, lane: number): ItemKey => ({ PK: `WALLET#${walletId}#LANE#${lane}`, SK: 'LANE' }),
};

/** Attribute names on main and lanes (period keys as periodKeyOf makes them: "DAY#2026-11-28"). */
export const hotAttributes = {
  folded: (partition: number) => `folded#${partition}`,
  ungranted: (periodKey: string) => `ungranted#${periodKey}`,
  quota: (periodKey: string) => `quota#${periodKey}`,
  /** The same name as the cold wallet's spend counter (entities/wallet.ts spendAttribute). */
  spend: (periodKey: string) => `spend#${periodKey}`,
  /** On an accumulator: its wallet was closed at this instant (a fold into it is refused from then on). */
  closedAt: 'closedAt',
};
