import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Item } from './item.js';
import { GSI } from './table-schema.js';
import type { TableContext } from './table-context.js';

/** Partitions of a due queue: enough that no single index partition takes every write. */
const SHARDS = 8;

/** The order DynamoDB sorts string keys in (code units; our keys are ASCII), not a locale's collation. */
const compareKeys = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const shardOf = (id: string): number =>
  [...id].reduce((hash, character) => (hash * 31 + character.charCodeAt(0)) % 1_000_003, 7) % SHARDS;

/**
 * A due queue on GSI4 (sparse): the records of one kind with work ahead, each listed by when it is
 * due (`${dueAt}#${id}`), spread over SHARDS partitions by id. Open transfers (by `reconcileAt`) and
 * approved card authorizations (by `expiresAt`) are the queues today; a record's own writes add or
 * remove its entry.
 */
export function dueQueue(name: string) {
  const partition = (shard: number) => `${name}#OPEN#${shard}`;
  return {
    sort: (id: string, dueAt: string) => ({ GSI4SK: `${dueAt}#${id}` }),
    partitionOf: (id: string) => ({ GSI4PK: partition(shardOf(id)) }),
    shards: (): string[] => Array.from({ length: SHARDS }, (_, shard) => partition(shard)),
    /** Everything due before `now` sorts below this. */
    dueBefore: (now: Date) => `${now.toISOString()}#`,
    /** The `limit` oldest entries due before `now`, over every shard, oldest first. */
    async listDue(table: TableContext, now: Date, limit: number, entityType: string): Promise<Item[]> {
      const shards = await Promise.all(
        Array.from({ length: SHARDS }, async (_, shard) => {
          const output = await table.client.send(
            new QueryCommand({
              TableName: table.tableName,
              IndexName: GSI.GSI4.name,
              KeyConditionExpression: '#pk = :pk AND #sk < :due',
              ExpressionAttributeNames: { '#pk': GSI.GSI4.partition, '#sk': GSI.GSI4.sort },
              ExpressionAttributeValues: { ':pk': partition(shard), ':due': `${now.toISOString()}#` },
              Limit: limit,
            }),
          );
          return (output.Items ?? []).filter((item) => item.entityType === entityType);
        }),
      );
      return shards
        .flat()
        .sort((a, b) => compareKeys(String(a.GSI4SK), String(b.GSI4SK)))
        .slice(0, limit);
    },
  };
}
