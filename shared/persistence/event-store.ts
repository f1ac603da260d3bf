import { PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { systemClock, type Clock } from '../domain/clock.js';
import { FEED_STAMP_BUDGET_MS, visibleStamp } from '../domain/events/event-feed.js';
import type { EventArchive, EventQuery, EventStore, FeedPage } from '../domain/events/ports.js';
import type { Environment } from '../domain/tenancy.js';
import type { OutboxEvent } from '../domain/types.js';
import { storedEventCodec, storedEventKeys } from './entities/stored-event.js';
import { orgShardOf, shardedKey, shardedKeys } from './entities/shards.js';
import { orgShardCount, orgShardSteps } from './org-shards.js';
import { isShardCursor, shardedPage } from './sharded-pages.js';
import type { Item } from './item.js';
import { createQueries, type Filter } from './queries.js';
import { GSI } from './table-schema.js';
import { getItem, type TableContext } from './table-context.js';

/** Items one query of the feed evaluates (a wallet-scoped key's or a type filter may keep few of them). */
const FEED_QUERY_BATCH = 100;
/**
 * Queries one poll of the feed makes at most, so at most 200 index items are read a call whatever
 * the rest of the organization did. Two always fill an unfiltered page of 100 (the first may hold
 * the item at the position itself); a filtered page ends at the position reached, with `more`.
 */
export const FEED_QUERIES_PER_CALL = 2;
/** Before every position of the feed (positions start with an ISO 8601 time; a key value can not be empty). */
const FEED_START = '0';

function filterOf(query: EventQuery, feed = false): Filter | undefined {
  const parts: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  if (query.type !== undefined) {
    parts.push('#f_type = :f_type');
    names['#f_type'] = 'type';
    values[':f_type'] = query.type;
  }
  if (query.createdAfter !== undefined) {
    parts.push('#f_createdAt > :f_after');
    names['#f_createdAt'] = 'createdAt';
    values[':f_after'] = query.createdAfter;
  }
  // The feed reads the organization's partition: a wallet-scoped key keeps its wallet's events
  // (those indexed under the wallet in the organization environment, as GSI2/GSI3 list them).
  if (feed && query.walletId !== undefined) {
    parts.push('(#f_w1 = :f_wallet OR #f_w2 = :f_wallet)');
    names['#f_w1'] = GSI.GSI2.partition;
    names['#f_w2'] = GSI.GSI3.partition;
  }
  return parts.length > 0 ? { expression: parts.join(' AND '), names, values } : undefined;
}

export function createEventStore(table: TableContext, options: { clock?: Clock } = {}): EventStore & EventArchive {
  const clock = options.clock ?? systemClock;
  const { queryIndex, mergedPages } = createQueries(table.client, table.tableName);

  /**
   * Stores the event stamped now (its place in the feed). A write that took longer than the stamp
   * budget may have landed after a poll's settled window passed its stamp: it is stamped again
   * (a later place), until a stamp is written within the budget.
   */
  async function store(event: OutboxEvent): Promise<boolean> {
    const shard = orgShardOf(
      await orgShardSteps(table, event.organizationId, event.environment),
      event.id,
      event.createdAt,
    );
    let stamp = visibleStamp(event.createdAt, clock.now());
    try {
      await table.client.send(
        new PutCommand({
          TableName: table.tableName,
          Item: storedEventCodec.toItem(event, stamp, shard),
          ConditionExpression: 'attribute_not_exists(PK)',
        }),
      );
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
    while (clock.now().getTime() - Date.parse(stamp) > FEED_STAMP_BUDGET_MS) {
      stamp = visibleStamp(event.createdAt, clock.now());
      await table.client.send(
        new UpdateCommand({
          TableName: table.tableName,
          Key: storedEventKeys.primary(event.id),
          UpdateExpression: 'SET visibleAt = :at, #sk = :sk',
          ExpressionAttributeNames: { '#sk': GSI.GSI4.sort },
          ExpressionAttributeValues: { ':at': stamp, ':sk': storedEventKeys.visibleSort(stamp, event.id) },
        }),
      );
    }
    return true;
  }

  async function listVisibleEvents(
    organizationId: string,
    environment: Environment,
    query: EventQuery,
    range: { after?: string | undefined; until: string },
    limit: number,
  ): Promise<FeedPage> {
    const until = storedEventKeys.visibleThrough(range.until);
    // Without a position, the feed starts at createdAfter (an event is never stamped before its createdAt).
    const after = range.after ?? query.createdAfter ?? FEED_START;
    if (after >= until) return { items: [], position: after, more: false };
    const filter = filterOf(query, true);
    // Each shard of the feed read from the position on (at most FEED_QUERIES_PER_CALL queries each).
    const count = await orgShardCount(table, organizationId, environment);
    const walletKey = query.walletId && storedEventKeys.ofWallet(organizationId, environment, query.walletId);
    const shards = await Promise.all(
      shardedKeys(storedEventKeys.visible(organizationId, environment), count).map((partition, shard) =>
        readFeedShard(partition, walletKey ? shardedKey(walletKey, shard) : undefined, after, until, filter, limit),
      ),
    );
    // Every shard is read through `frontier`: the lowest index position a shard's reads stopped at
    // (its end: `until`). Items up to it are merged in visible order; beyond it a shard was not read.
    let frontier = until;
    for (const { startKey } of shards) {
      if (!startKey) continue;
      const reached = startKey[GSI.GSI4.sort];
      if (typeof reached !== 'string') throw new Error('The feed query answered no index position.');
      if (reached < frontier) frontier = reached;
    }
    const found = shards
      .flatMap((shard) => shard.found)
      .filter((item) => String(item[GSI.GSI4.sort]) <= frontier)
      .sort((a, b) => (String(a[GSI.GSI4.sort]) < String(b[GSI.GSI4.sort]) ? -1 : 1));
    const items = found.slice(0, limit);
    const page = items.map(storedEventCodec.fromItem);
    if (found.length > limit) return { items: page, position: String(items.at(-1)![GSI.GSI4.sort]), more: true };
    // The read bound is reached before the page is full (a filter kept few of the items read): the
    // page so far, possibly empty, and the position read through; the client calls again at once.
    if (shards.some((shard) => shard.startKey)) return { items: page, position: frontier, more: true };
    return { items: page, position: until, more: false };
  }

  /** One shard of the feed from `after` to `until` (the wallet filter names the wallet's key on that shard). */
  async function readFeedShard(
    partition: string,
    walletKey: string | undefined,
    after: string,
    until: string,
    filter: Filter | undefined,
    limit: number,
  ): Promise<{ found: Item[]; startKey: Record<string, unknown> | undefined }> {
    const found: Item[] = [];
    let startKey: Record<string, unknown> | undefined;
    let queries = 0;
    do {
      const output = await table.client.send(
        new QueryCommand({
          TableName: table.tableName,
          IndexName: GSI.GSI4.name,
          KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :after AND :until',
          ExpressionAttributeNames: { '#pk': GSI.GSI4.partition, '#sk': GSI.GSI4.sort, ...(filter?.names ?? {}) },
          ExpressionAttributeValues: {
            ':pk': partition,
            ':after': after,
            ':until': until,
            ...(filter?.values ?? {}),
            ...(walletKey !== undefined ? { ':f_wallet': walletKey } : {}),
          },
          ...(filter ? { FilterExpression: filter.expression } : {}),
          ScanIndexForward: true,
          Limit: FEED_QUERY_BATCH,
          ...(startKey ? { ExclusiveStartKey: startKey } : {}),
        }),
      );
      // BETWEEN includes its bounds: the event at the position itself was answered before.
      found.push(...(output.Items ?? []).filter((item) => item[GSI.GSI4.sort] !== after));
      startKey = output.LastEvaluatedKey;
      queries += 1;
    } while (startKey && found.length <= limit && queries < FEED_QUERIES_PER_CALL);
    return { found, startKey };
  }

  return {
    async getEvent(eventId) {
      const item = await getItem(table, storedEventKeys.primary(eventId));
      return item ? storedEventCodec.fromItem(item) : undefined;
    },
    async listEvents(organizationId, environment, query, page) {
      const filter = filterOf(query);
      const count = await orgShardCount(table, organizationId, environment);
      // A cursor of the list before the organization was sharded goes on over shard 0: the other
      // shards hold only events newer than it (entities/shards.ts).
      if (count > 1 && (page.startKey === undefined || isShardCursor(page.startKey))) {
        const sources = query.walletId
          ? shardedKeys(storedEventKeys.ofWallet(organizationId, environment, query.walletId), count).flatMap(
              (partition) => [
                { index: GSI.GSI2, partition },
                { index: GSI.GSI3, partition },
              ],
            )
          : shardedKeys(storedEventKeys.ofOrganization(organizationId, environment), count).map((partition) => ({
              index: GSI.GSI1,
              partition,
            }));
        return shardedPage(table.client, table.tableName, sources, page, storedEventCodec.fromItem, { filter });
      }
      if (query.walletId) {
        const partition = storedEventKeys.ofWallet(organizationId, environment, query.walletId);
        return mergedPages(
          [
            { index: GSI.GSI2, partition },
            { index: GSI.GSI3, partition },
          ],
          page,
          storedEventCodec.fromItem,
          filter,
        );
      }
      return queryIndex(
        GSI.GSI1,
        storedEventKeys.ofOrganization(organizationId, environment),
        page,
        storedEventCodec.fromItem,
        filter,
      );
    },
    listVisibleEvents,
    async storeEvents(events) {
      const stored = await Promise.all(events.map(async (event) => ((await store(event)) ? [event] : [])));
      return stored.flat();
    },
  };
}
