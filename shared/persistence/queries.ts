import { BatchGetCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Page, PageRequest } from '../domain/types.js';
import type { Item, ItemKey } from './item.js';
import { GSI } from './table-schema.js';

export type Filter = { expression: string; names: Record<string, string>; values: Record<string, unknown> };

/** An AND of equality conditions for a FilterExpression (undefined values are left out). */
export function equalityFilter(fields: Record<string, unknown>): Filter | undefined {
  const entries = Object.entries(fields).filter(([, value]) => value !== undefined);
  if (entries.length === 0) return undefined;
  return {
    expression: entries.map(([name]) => `#f_${name} = :f_${name}`).join(' AND '),
    names: Object.fromEntries(entries.map(([name]) => [`#f_${name}`, name])),
    values: Object.fromEntries(entries.map(([name, value]) => [`:f_${name}`, value])),
  };
}

/** Paged queries of the table and its indexes. */
export function createQueries(client: DynamoDBDocumentClient, tableName: string) {
  /**
   * A page of an index partition, newest first. With a filter, DynamoDB's Limit counts items
   * before filtering, so the query continues until the page is full or the partition ends.
   */
  async function queryIndex<T>(
    index: (typeof GSI)[keyof typeof GSI] | null,
    partition: string,
    page: PageRequest,
    decode: (item: Item) => T,
    filter?: Filter,
    sortPrefix?: string,
    range?: { from?: string | undefined; to?: string | undefined },
  ): Promise<Page<T>> {
    const sortCondition = sortPrefix
      ? ' AND begins_with(#sk, :prefix)'
      : range?.from !== undefined && range.to !== undefined
        ? ' AND #sk BETWEEN :from AND :to'
        : range?.from !== undefined
          ? ' AND #sk >= :from'
          : range?.to !== undefined
            ? ' AND #sk <= :to'
            : '';
    const sortValues: Record<string, unknown> = {
      ...(sortPrefix ? { ':prefix': sortPrefix } : {}),
      ...(range?.from !== undefined ? { ':from': range.from } : {}),
      ...(range?.to !== undefined ? { ':to': range.to } : {}),
    };
    const pkName = index ? index.partition : 'PK';
    const skName = index ? index.sort : 'SK';
    const send = (limit: number, startKey: Record<string, unknown> | undefined) =>
      client.send(
        new QueryCommand({
          TableName: tableName,
          ...(index ? { IndexName: index.name } : { ConsistentRead: true }),
          KeyConditionExpression: `#pk = :pk${sortCondition}`,
          ExpressionAttributeNames: {
            '#pk': pkName,
            ...(sortCondition ? { '#sk': skName } : {}),
            ...(filter?.names ?? {}),
          },
          ExpressionAttributeValues: { ':pk': partition, ...sortValues, ...(filter?.values ?? {}) },
          ...(filter ? { FilterExpression: filter.expression } : {}),
          ScanIndexForward: false,
          Limit: limit,
          ...(startKey ? { ExclusiveStartKey: startKey } : {}),
        }),
      );
    const items: Item[] = [];
    let lastKey: Record<string, unknown> | undefined = page.startKey;
    do {
      const output = await send(page.limit - items.length, lastKey);
      items.push(...(output.Items ?? []));
      lastKey = output.LastEvaluatedKey;
    } while (lastKey && items.length < page.limit);
    // A full page may end exactly at the end of the partition: look ahead so the last page says so.
    let ahead = lastKey;
    while (ahead) {
      const output = await send(page.limit, ahead);
      if ((output.Items ?? []).length > 0) break;
      ahead = output.LastEvaluatedKey;
    }
    return { items: items.map(decode), ...(lastKey && ahead ? { lastKey } : {}) };
  }

  /**
   * One newest-first page over several index partitions (e.g. payments sent and received): each
   * source is read from its own position, the results merged by sort key and de-duplicated by
   * id, and the cursor keeps every source's position.
   */
  async function mergedPages<T>(
    sources: { index: (typeof GSI)[keyof typeof GSI]; partition: string }[],
    page: PageRequest,
    decode: (item: Item) => T,
    filter?: Filter,
  ): Promise<Page<T>> {
    type Position = Record<string, unknown> | null | 'done';
    const positions = (page.startKey?.positions as Position[] | undefined) ?? sources.map((): Position => null);
    const fetched = await Promise.all(
      sources.map(async (source, i) => {
        const position = positions[i] ?? null;
        if (position === 'done') return { items: [] as Item[], lastKey: undefined };
        const result = await queryIndex(
          source.index,
          source.partition,
          { limit: page.limit, ...(position ? { startKey: position } : {}) },
          (item) => item,
          filter,
        );
        return { items: result.items, lastKey: result.lastKey };
      }),
    );
    const candidates = fetched.flatMap((result, source) =>
      result.items.map((item, offset) => ({ item, source, offset, sort: String(item[sources[source]!.index.sort]) })),
    );
    candidates.sort((a, b) => (a.sort < b.sort ? 1 : a.sort > b.sort ? -1 : a.source - b.source));
    const taken = new Map<string, Item>();
    const consumed = sources.map(() => -1);
    for (const candidate of candidates) {
      const id = String(candidate.item.id);
      if (taken.size >= page.limit && !taken.has(id)) break;
      if (!taken.has(id)) taken.set(id, candidate.item);
      consumed[candidate.source] = candidate.offset;
    }
    const next: Position[] = sources.map((source, i) => {
      const result = fetched[i]!;
      const last = consumed[i]!;
      if (positions[i] === 'done') return 'done';
      if (result.items.length === 0) return result.lastKey ?? 'done';
      if (last === -1) return positions[i] ?? null;
      if (last === result.items.length - 1) return result.lastKey ?? 'done';
      const item = result.items[last]!;
      return {
        PK: item.PK,
        SK: item.SK,
        [source.index.partition]: item[source.index.partition],
        [source.index.sort]: item[source.index.sort],
      };
    });
    const more = next.some((position) => position !== 'done');
    return { items: [...taken.values()].map(decode), ...(more ? { lastKey: { positions: next } } : {}) };
  }

  return { queryIndex, mergedPages };
}

/** Attempts of a batch read whose keys DynamoDB left unprocessed (throttling), before giving up. */
const BATCH_GET_ATTEMPTS = 5;
const BATCH_GET_SIZE = 100;
const keyString = (key: ItemKey) => `${key.PK}\u0000${key.SK}`;

/** Consistent reads of items by key, any number of them (batches of 100), by key. */
export async function batchGetItems(
  client: DynamoDBDocumentClient,
  tableName: string,
  keys: ItemKey[],
): Promise<Map<string, Item>> {
  const found = new Map<string, Item>();
  const unique = [...new Map(keys.map((key) => [keyString(key), key])).values()];
  for (let start = 0; start < unique.length; start += BATCH_GET_SIZE) {
    let pending: Record<string, unknown>[] = unique
      .slice(start, start + BATCH_GET_SIZE)
      .map((key) => ({ PK: key.PK, SK: key.SK }));
    for (let attempt = 1; pending.length > 0; attempt++) {
      if (attempt > BATCH_GET_ATTEMPTS) throw new Error(`batch read left ${pending.length} keys unprocessed`);
      const output = await client.send(
        new BatchGetCommand({ RequestItems: { [tableName]: { Keys: pending, ConsistentRead: true } } }),
      );
      for (const item of output.Responses?.[tableName] ?? []) found.set(keyString(item as ItemKey), item);
      pending = (output.UnprocessedKeys?.[tableName]?.Keys as Record<string, unknown>[] | undefined) ?? [];
      if (pending.length > 0) await new Promise((resolve) => setTimeout(resolve, 10 * 2 ** attempt));
    }
  }
  return found;
}

export const itemAt = (items: Map<string, Item>, key: ItemKey): Item | undefined => items.get(keyString(key));

/**
 * A page of items found through a listing partition (wallet-listing.ts, payment-listing.ts):
 * the listing newest first, the items themselves read by key (the truth, never a copy), kept when
 * `decode` returns a value. Exact pages: the cursor is set only when another kept item follows.
 */
export async function listedPage<T>(
  client: DynamoDBDocumentClient,
  tableName: string,
  partition: string,
  page: PageRequest,
  target: (listing: Item) => ItemKey | undefined,
  decode: (item: Item) => T | undefined,
): Promise<Page<T>> {
  const kept: { value: T; key: Record<string, unknown> }[] = [];
  let startKey = page.startKey;
  do {
    const output = await client.send(
      new QueryCommand({
        TableName: tableName,
        ConsistentRead: true,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': partition },
        ScanIndexForward: false,
        Limit: page.limit + 1 - kept.length,
        ...(startKey ? { ExclusiveStartKey: startKey } : {}),
      }),
    );
    const listings = output.Items ?? [];
    const items = await batchGetItems(
      client,
      tableName,
      listings.flatMap((listing) => target(listing) ?? []),
    );
    for (const listing of listings) {
      const key = target(listing);
      const item = key ? itemAt(items, key) : undefined;
      const value = item ? decode(item) : undefined;
      if (value === undefined) continue;
      kept.push({ value, key: { PK: listing.PK, SK: listing.SK } });
      if (kept.length > page.limit) break;
    }
    startKey = output.LastEvaluatedKey;
  } while (startKey && kept.length <= page.limit);
  const items = kept.slice(0, page.limit);
  return {
    items: items.map((entry) => entry.value),
    ...(kept.length > page.limit ? { lastKey: items.at(-1)!.key } : {}),
  };
}
