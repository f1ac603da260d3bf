import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Page, PageRequest } from '../domain/types.js';
import type { Item, ItemKey } from './item.js';
import { batchGetItems, itemAt, type Filter } from './queries.js';
import type { GSI } from './table-schema.js';

/** One partition of a sharded list: an index partition, or (index null) a partition of the table. */
export interface ShardSource {
  index: (typeof GSI)[keyof typeof GSI] | null;
  partition: string;
}

/**
 * The cursor of a sharded list: the sort key of the last item given. Every shard of a list sorts
 * its items by the same unique key (`${instant}#${id}`), so one position serves them all, however
 * many shards there are; a next page reads each shard below it. (mergedPages keeps a position per
 * source: for a hot wallet's 96 shards that cursor would be about 15 KB.)
 */
export interface ShardCursor {
  before: string;
}

export const isShardCursor = (startKey: Record<string, unknown> | undefined): startKey is ShardCursor & Item =>
  typeof startKey?.before === 'string';

interface MergeOptions {
  filter?: Filter | undefined;
  /** Inclusive bounds of the sort key. */
  range?: { from?: string | undefined; to?: string | undefined } | undefined;
  /** Exclusive: only items sorting below it (the cursor). */
  before?: string | undefined;
  /** Items one query evaluates. */
  batch: number;
}

const baseKeyOf = (item: Item) => `${String(item.PK)}\u0000${String(item.SK)}`;

/**
 * The items of several partitions merged newest first (a k-way merge: each shard is queried only
 * when its buffered items are used up), each item once (by its table key, as an item may be in
 * two of the sources, e.g. an event's GSI2 and GSI3 of one wallet).
 */
export function createShardMerge(
  client: DynamoDBDocumentClient,
  tableName: string,
  sources: ShardSource[],
  options: MergeOptions,
) {
  const upper =
    options.before !== undefined && options.range?.to !== undefined
      ? options.before < options.range.to
        ? options.before
        : options.range.to
      : (options.before ?? options.range?.to);
  const lower = options.range?.from;
  const states = sources.map((source) => ({
    source,
    sortName: source.index ? source.index.sort : 'SK',
    buffer: [] as Item[],
    startKey: undefined as Record<string, unknown> | undefined,
    done: false,
  }));
  const seen = new Set<string>();

  async function refill(state: (typeof states)[number]): Promise<void> {
    const { source, sortName } = state;
    const condition =
      lower !== undefined && upper !== undefined
        ? ' AND #sk BETWEEN :from AND :to'
        : lower !== undefined
          ? ' AND #sk >= :from'
          : upper !== undefined
            ? ' AND #sk <= :to'
            : '';
    while (state.buffer.length === 0 && !state.done) {
      const output = await client.send(
        new QueryCommand({
          TableName: tableName,
          ...(source.index ? { IndexName: source.index.name } : { ConsistentRead: true }),
          KeyConditionExpression: `#pk = :pk${condition}`,
          ExpressionAttributeNames: {
            '#pk': source.index ? source.index.partition : 'PK',
            ...(condition ? { '#sk': sortName } : {}),
            ...(options.filter?.names ?? {}),
          },
          ExpressionAttributeValues: {
            ':pk': source.partition,
            ...(lower !== undefined ? { ':from': lower } : {}),
            ...(upper !== undefined ? { ':to': upper } : {}),
            ...(options.filter?.values ?? {}),
          },
          ...(options.filter ? { FilterExpression: options.filter.expression } : {}),
          ScanIndexForward: false,
          Limit: options.batch,
          ...(state.startKey ? { ExclusiveStartKey: state.startKey } : {}),
        }),
      );
      // `<=` includes the cursor's own item (given on the page before).
      state.buffer.push(
        ...(output.Items ?? []).filter((item) => options.before === undefined || item[sortName] !== options.before),
      );
      state.startKey = output.LastEvaluatedKey;
      state.done = state.startKey === undefined;
    }
  }

  /** The next item (not taken yet) and its sort key, without taking it. */
  async function peek(): Promise<{ item: Item; sort: string } | undefined> {
    for (;;) {
      await Promise.all(states.filter((state) => state.buffer.length === 0 && !state.done).map(refill));
      let best: (typeof states)[number] | undefined;
      for (const state of states) {
        const head = state.buffer[0];
        if (head && (!best || String(head[state.sortName]) > String(best.buffer[0]![best.sortName]))) best = state;
      }
      if (!best) return undefined;
      const item = best.buffer[0]!;
      if (!seen.has(baseKeyOf(item))) return { item, sort: String(item[best.sortName]) };
      best.buffer.shift();
    }
  }

  async function next(): Promise<{ item: Item; sort: string } | undefined> {
    const found = await peek();
    if (!found) return undefined;
    seen.add(baseKeyOf(found.item));
    for (const state of states) if (state.buffer[0] === found.item) state.buffer.shift();
    return found;
  }

  return { peek, next };
}

/**
 * A newest-first page over the shards of a list (the sharded form of queryIndex and mergedPages):
 * exact (the cursor is set only when another item follows), with filter and sort range applied
 * in every shard.
 */
export async function shardedPage<T>(
  client: DynamoDBDocumentClient,
  tableName: string,
  sources: ShardSource[],
  page: PageRequest,
  decode: (item: Item) => T,
  options: { filter?: Filter | undefined; range?: MergeOptions['range'] } = {},
): Promise<Page<T>> {
  const before = isShardCursor(page.startKey) ? page.startKey.before : undefined;
  const merge = createShardMerge(client, tableName, sources, { ...options, before, batch: page.limit + 1 });
  const taken: { item: Item; sort: string }[] = [];
  while (taken.length < page.limit) {
    const found = await merge.next();
    if (!found) break;
    taken.push(found);
  }
  const more = taken.length === page.limit && (await merge.peek()) !== undefined;
  return {
    items: taken.map((entry) => decode(entry.item)),
    ...(more ? { lastKey: { before: taken.at(-1)!.sort } } : {}),
  };
}

/**
 * The sharded form of listedPage (queries.ts): listings merged newest first over the shards, the
 * items read by key, kept when `decode` returns a value; exact pages.
 */
export async function shardedListedPage<T>(
  client: DynamoDBDocumentClient,
  tableName: string,
  partitions: string[],
  page: PageRequest,
  target: (listing: Item) => ItemKey | undefined,
  decode: (item: Item) => T | undefined,
): Promise<Page<T>> {
  const before = isShardCursor(page.startKey) ? page.startKey.before : undefined;
  const merge = createShardMerge(
    client,
    tableName,
    partitions.map((partition) => ({ index: null, partition })),
    { before, batch: page.limit + 1 },
  );
  const kept: { value: T; sort: string }[] = [];
  for (let exhausted = false; !exhausted && kept.length <= page.limit;) {
    const listings: { item: Item; sort: string }[] = [];
    while (listings.length < page.limit + 1 - kept.length) {
      const found = await merge.next();
      if (!found) {
        exhausted = true;
        break;
      }
      listings.push(found);
    }
    const items = await batchGetItems(
      client,
      tableName,
      listings.flatMap((listing) => target(listing.item) ?? []),
    );
    for (const listing of listings) {
      const key = target(listing.item);
      const item = key ? itemAt(items, key) : undefined;
      const value = item ? decode(item) : undefined;
      if (value !== undefined) kept.push({ value, sort: listing.sort });
    }
  }
  const items = kept.slice(0, page.limit);
  return {
    items: items.map((entry) => entry.value),
    ...(kept.length > page.limit ? { lastKey: { before: items.at(-1)!.sort } } : {}),
  };
}
