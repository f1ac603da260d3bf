import { readInt } from '../client.js';
import type { Item } from '../item.js';
import { fnv1a } from '../../domain/ledger/hot/hot-routing.js';

/**
 * Sharded secondary keys (docs/architecture.md "Hot wallets"): index and projection partitions that
 * every payment of a hot wallet or organization writes are split over shards, shard 0 being
 * today's key (no suffix) and shard s > 0 the key with `#<s>`. A cold wallet or organization has
 * one shard: its keys, items and reads are exactly those of before.
 */
export const shardedKey = (base: string, shard: number): string => (shard === 0 ? base : `${base}#${shard}`);

/** The keys of shards 0..count-1 of a base key. */
export const shardedKeys = (base: string, count: number): string[] =>
  Array.from({ length: Math.max(1, count) }, (_, shard) => shardedKey(base, shard));

/** The shard of an id among `count` shards (0 when there is one). */
export const shardOfId = (id: string, count: number): number => (count <= 1 ? 0 : fnv1a(id) % count);

// ---------------------------------------------------------------------------------------------
// A wallet's transaction lists (journal GSI2 by debited wallet, GSI3 by credited wallet).

/**
 * How many shards a wallet's transaction lists have: `in` for GSI3 (credit partitions), `out` for
 * GSI2 (debit lanes). Kept on the wallet's main item as `txnShards`, only ever grown (kept after
 * demotion: the records stay where they were written).
 */
export interface TxnShards {
  in: number;
  out: number;
}

export const TXN_SHARDS_ATTRIBUTE = 'txnShards';
export const COLD_TXN_SHARDS: TxnShards = { in: 1, out: 1 };

const positiveInt = (value: unknown): number => {
  if (value === undefined || value === null) return 1;
  // A number as a writer gives it, or a NumberValue as an item read back (wrapNumbers) carries it.
  const n = typeof value === 'number' ? value : readInt(value);
  return Number.isInteger(n) && n > 1 ? n : 1;
};

/**
 * The shards of a wallet's lists from its main item: `txnShards`, and the partitions and lanes of
 * `hot` while it is hot (whichever is larger, so a list never misses a shard in use).
 */
export function txnShardsOf(walletItem: Item | undefined): TxnShards {
  if (!walletItem) return COLD_TXN_SHARDS;
  const stored = walletItem[TXN_SHARDS_ATTRIBUTE] as Record<string, unknown> | undefined;
  const hot = walletItem.hot as Record<string, unknown> | undefined;
  return {
    in: Math.max(positiveInt(stored?.in), positiveInt(hot?.partitions)),
    out: Math.max(positiveInt(stored?.out), positiveInt(hot?.lanes)),
  };
}

/**
 * `txnShards` after a promotion to G partitions and M lanes (only grows): what the keeper's
 * promotion (and any growth of G or M) sets on main in the same transaction that sets `hot`.
 */
export function grownTxnShards(current: TxnShards | undefined, config: { partitions: number; lanes: number }) {
  return {
    in: Math.max(current?.in ?? 1, config.partitions),
    out: Math.max(current?.out ?? 1, config.lanes),
  };
}

export const isSharded = (shards: TxnShards): boolean => shards.in > 1 || shards.out > 1;

// ---------------------------------------------------------------------------------------------
// An organization environment's projected keys (payment listing, audit, events).

/**
 * One raise of an organization environment's shard count: items whose time (the instant in their
 * sort key) is at or after `from` are spread over `count` shards. Raises take effect a delay after
 * they are written (ORG_SHARD_RAISE_DELAY_MS, longer than any cache of the steps), so every
 * writer, a retry or `npm run journal:replay` puts an item on the same shard, and a reader whose
 * cache is not older than ORG_SHARDS_CACHE_MS never misses a shard holding items.
 */
export interface ShardStep {
  count: number;
  from: string;
}

export const ORG_SHARD_STEPS_ATTRIBUTE = 'shardSteps';
export const ORG_SHARD_COUNT_ATTRIBUTE = 'shardCount';
/**
 * S for an organization one of whose wallets is promoted: 16 shards, 16,000 WCU/s per projected key.
 * With 8, the organization payment-listing shard took 704 WCU/s at 5,000 payments/s into one hot
 * wallet (the model, docs/performance.md Issue 25), over the 700 of the target; a list page reads
 * one query per shard.
 */
export const HOT_ORGANIZATION_SHARDS = 16;
export const MAX_ORGANIZATION_SHARDS = 64;
/** How long a process keeps an organization environment's steps (writers and readers alike). */
export const ORG_SHARDS_CACHE_MS = 5_000;
/** From a raise to the instant it takes effect: the cache, plus a margin for clocks and requests in flight. */
export const ORG_SHARD_RAISE_DELAY_MS = 20_000;

export function shardStepsOf(orgEnvironmentItem: Item | undefined): ShardStep[] {
  const raw = orgEnvironmentItem?.[ORG_SHARD_STEPS_ATTRIBUTE];
  if (!Array.isArray(raw)) return [];
  return (raw as Item[])
    .map((step) => ({ count: positiveInt(step.count), from: String(step.from) }))
    .sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : a.count - b.count));
}

/** The shard count in force for an item of instant `at` (1 before the first step). */
export function shardCountAt(steps: ShardStep[], at: string): number {
  let count = 1;
  for (const step of steps) if (step.from <= at) count = Math.max(count, step.count);
  return count;
}

/** Every shard that may hold items: readers merge shards 0..max-1 (a step still to come included). */
export const maxShardCount = (steps: ShardStep[]): number => steps.reduce((max, step) => Math.max(max, step.count), 1);

/** The shard of a projected item: its id hashed over the count in force at its instant. */
export const orgShardOf = (steps: ShardStep[], id: string, at: string): number =>
  shardOfId(id, shardCountAt(steps, at));
