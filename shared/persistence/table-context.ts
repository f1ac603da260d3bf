import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Clock } from '../domain/clock.js';
import type { HotRouting } from './hot/hot-cache.js';
import type { Item, ItemKey } from './item.js';
import type { TransactOptions } from './transact.js';

/** The table every store works on: one document client per process and the table's name. */
export interface TableContext {
  client: DynamoDBDocumentClient;
  tableName: string;
  /** Injected for tests (fault injection) and the benchmark (call counting). */
  transact?: TransactOptions;
  /** The process's hot-wallet routing (config cache, sticky lanes, the keeper's reads); one is made per table when absent. */
  hot?: HotRouting;
  /** The process's clock for the table's bookkeeping (conflict counts' minute); the system clock when absent. */
  clock?: Clock;
}

/** One consistent read of an item by its key. */
export async function getItem(table: TableContext, key: ItemKey): Promise<Item | undefined> {
  const output = await table.client.send(
    new GetCommand({ TableName: table.tableName, Key: key, ConsistentRead: true }),
  );
  return output.Item;
}
