import Big from 'big.js';
import type {
  CreditPartitionState,
  HotConfig,
  HotMainState,
  HotWalletParts,
  LaneState,
} from '../../domain/ledger/hot/hot-types.js';
import type { Environment } from '../../domain/tenancy.js';
import { readBig, readInt } from '../client.js';
import { HOT_ACC_ENTITY, HOT_INBOX_ENTITY, HOT_LANE_ENTITY, hotKeys } from '../entities/hot-wallet.js';
import { spendCountersOf, walletCodec } from '../entities/wallet.js';
import { str, type Item } from '../item.js';

/** The sub-items of a hot wallet as read (the item schema of docs/architecture.md "Hot wallets"), into hot-types.ts shapes. */

const big = (value: unknown): Big => (value === undefined || value === null ? new Big(0) : readBig(value));

/** Attributes `<prefix><key>` of an item as key -> amount. */
function prefixed(item: Item, prefix: string): Record<string, Big> {
  const out: Record<string, Big> = {};
  for (const [name, value] of Object.entries(item))
    if (name.startsWith(prefix)) out[name.slice(prefix.length)] = big(value);
  return out;
}

/** main's `hot`, or undefined for a cold wallet. */
export function hotConfigOf(item: Item): HotConfig | undefined {
  const hot = item.hot as Record<string, unknown> | undefined;
  if (!hot || typeof hot !== 'object') return undefined;
  return {
    state: hot.state === 'COOLING' ? 'COOLING' : 'HOT',
    partitions: readInt(hot.partitions),
    lanes: readInt(hot.lanes),
    since: str(hot.since),
    ...(typeof hot.coolingSince === 'string' ? { coolingSince: hot.coolingSince } : {}),
  };
}

/** main's `hot` as written (numbers small integers). */
export const hotConfigItem = (config: HotConfig) => ({
  state: config.state,
  partitions: config.partitions,
  lanes: config.lanes,
  since: config.since,
  ...(config.coolingSince ? { coolingSince: config.coolingSince } : {}),
});

export function mainPartsOf(item: Item, hot: HotConfig): HotWalletParts['main'] {
  const wallet = walletCodec.fromItem(item);
  const folded: HotMainState['folded'] = {};
  for (const [key, value] of Object.entries(prefixed(item, 'folded#'))) folded[Number(key)] = value;
  const spend: Record<string, Big> = {};
  for (const counter of spendCountersOf(item)) spend[`${counter.period}#${counter.periodKey}`] = counter.spent;
  return {
    hot,
    seq: readInt(item.seq),
    folded,
    ungranted: prefixed(item, 'ungranted#'),
    policyVersion: readInt(item.policyVersion),
    balance: wallet.balance,
    heldBalance: wallet.heldBalance,
    pendingBalance: wallet.pendingBalance,
    spend,
    status: wallet.status,
    entryCount: walletCodec.entryCountOf(item),
    ...(wallet.deletedAt ? { deletedAt: wallet.deletedAt } : {}),
  };
}

/** The accumulator's list of the transaction ids of inbox items a fold credited and is deleting (fold-moves.ts). */
export const PENDING_ATTRIBUTE = 'pending';

export function pendingOf(acc: Item | undefined): string[] {
  const pending = acc?.[PENDING_ATTRIBUTE];
  return Array.isArray(pending) ? pending.map(String) : [];
}

/** One credit partition from the items of its key (the accumulator and the inbox items, any order). */
export function partitionOf(partition: number, items: Item[]): CreditPartitionState {
  const acc = items.find((item) => item.entityType === HOT_ACC_ENTITY);
  // A fold's credited items are in `credited` already while their deletes run (fold-moves.ts).
  const pending = new Set(pendingOf(acc));
  return {
    partition,
    credited: big(acc?.credited),
    seq: readInt(acc?.seq),
    entryCount: readInt(acc?.entryCount),
    inbox: items
      .filter((item) => item.entityType === HOT_INBOX_ENTITY && !pending.has(str(item.transactionId)))
      .map((item) => ({
        transactionId: str(item.transactionId),
        amount: big(item.amount),
        createdAt: str(item.createdAt),
      })),
  };
}

export function laneOf(lane: number, item: Item): LaneState {
  return {
    lane,
    status: item.status === 'FROZEN' ? 'FROZEN' : 'ACTIVE',
    environment: item.environment as Environment,
    policyVersion: readInt(item.policyVersion),
    available: big(item.available),
    quota: prefixed(item, 'quota#'),
    spend: prefixed(item, 'spend#'),
    seq: readInt(item.seq),
    entryCount: readInt(item.entryCount),
  };
}

/** The lane index of a lane item's key (WALLET#<w>#LANE#<l>). */
export const laneIndexOf = (item: Item): number => Number(str(item.PK).split('#').pop());

export const partitionKeysOf = (walletId: string, count: number) =>
  Array.from({ length: count }, (_, g) => hotKeys.creditPartition(walletId, g));

/**
 * A hot wallet's parts from its items as a scan found them (the ledger check): main, and every
 * accumulator, inbox item and lane of the wallet. A demoted wallet keeps its accumulators: its
 * parts then carry a COOLING config with no lanes.
 */
export function hotPartsOfItems(walletId: string, main: Item, items: Item[]): HotWalletParts {
  const byPartition = new Map<number, Item[]>();
  const lanes: LaneState[] = [];
  for (const item of items) {
    if (item.entityType === HOT_LANE_ENTITY) lanes.push(laneOf(laneIndexOf(item), item));
    else {
      const partition = Number(str(item.PK).split('#').pop());
      byPartition.set(partition, [...(byPartition.get(partition) ?? []), item]);
    }
  }
  const hot = hotConfigOf(main) ?? { state: 'COOLING', partitions: byPartition.size, lanes: 0, since: '' };
  return {
    walletId,
    main: mainPartsOf(main, hot),
    partitions: [...byPartition].sort(([a], [b]) => a - b).map(([g, group]) => partitionOf(g, group)),
    lanes: lanes.sort((a, b) => a.lane - b.lane),
  };
}
