import { BatchGetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { exactBalances } from '../../domain/ledger/hot/hot-balances.js';
import type { CreditPartitionState, HotWalletParts, LaneState } from '../../domain/ledger/hot/hot-types.js';
import type { Wallet } from '../../domain/types.js';
import { readInt } from '../client.js';
import { hotKeys } from '../entities/hot-wallet.js';
import { walletCodec, walletKeys } from '../entities/wallet.js';
import type { Item } from '../item.js';
import { getItem, type TableContext } from '../table-context.js';
import { TransactionConflictError } from '../transact.js';
import { hotConfigOf, laneIndexOf, laneOf, mainPartsOf, partitionOf } from './hot-items.js';

/** Seqlock rounds before an exact read gives up (keeper moves touch main a few times a second at most). */
const READ_ATTEMPTS = 10;

/**
 * The exact read of a hot wallet (design 2.4), a seqlock: main (its `seq`); each credit partition
 * (a consistent query of the accumulator and its inbox, then the accumulator again: a fold between
 * the two reads that partition again); the lanes; main again, read again from the start if its
 * `seq` moved (a keeper move touching main happened meanwhile). The result counts each unit once,
 * includes every movement acknowledged before the read began, and is never negative. Undefined for
 * a missing or cold wallet. `first` saves the first read of main when the caller has it.
 */
export async function readHotWallet(
  table: TableContext,
  walletId: string,
  first?: Item,
): Promise<HotWalletParts | undefined> {
  let main = first ?? (await getItem(table, walletKeys.primary(walletId)));
  for (let attempt = 1; ; attempt++) {
    const hot = main ? hotConfigOf(main) : undefined;
    if (!main || !hot) return undefined;
    const [partitions, lanes] = await Promise.all([
      Promise.all(Array.from({ length: hot.partitions }, (_, g) => readPartition(table, walletId, g))),
      readLanes(table, walletId, hot.lanes),
    ]);
    const again = await getItem(table, walletKeys.primary(walletId));
    if (again && readInt(again.seq) === readInt(main.seq) && hotConfigOf(again)) {
      return { walletId, main: mainPartsOf(again, hotConfigOf(again)!), partitions, lanes };
    }
    if (attempt >= READ_ATTEMPTS) throw new TransactionConflictError(attempt, new Error('hot wallet read kept moving'));
    main = again;
  }
}

/** One credit partition, consistent with itself: its accumulator's `seq` did not move while its inbox was read. */
async function readPartition(table: TableContext, walletId: string, partition: number): Promise<CreditPartitionState> {
  const key = hotKeys.accumulator(walletId, partition);
  for (let attempt = 1; ; attempt++) {
    const items = await queryAll(table, key.PK);
    const state = partitionOf(partition, items);
    const acc = await getItem(table, key);
    if (readInt(acc?.seq) === state.seq) return state;
    if (attempt >= READ_ATTEMPTS)
      throw new TransactionConflictError(attempt, new Error('hot wallet partition kept moving'));
  }
}

async function queryAll(table: TableContext, partitionKey: string): Promise<Item[]> {
  const items: Item[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await table.client.send(
      new QueryCommand({
        TableName: table.tableName,
        ConsistentRead: true,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': partitionKey },
        ...(startKey ? { ExclusiveStartKey: startKey } : {}),
      }),
    );
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}

/** The lanes 0..count-1 that exist (consistent BatchGetItem, unprocessed keys asked again). */
export async function readLanes(table: TableContext, walletId: string, count: number): Promise<LaneState[]> {
  if (count === 0) return [];
  const found: Item[] = [];
  let keys: Record<string, unknown>[] = Array.from({ length: count }, (_, l) => ({ ...hotKeys.lane(walletId, l) }));
  while (keys.length > 0) {
    const output = await table.client.send(
      new BatchGetCommand({ RequestItems: { [table.tableName]: { Keys: keys, ConsistentRead: true } } }),
    );
    found.push(...(output.Responses?.[table.tableName] ?? []));
    keys = output.UnprocessedKeys?.[table.tableName]?.Keys ?? [];
  }
  return found.map((item) => laneOf(laneIndexOf(item), item)).sort((a, b) => a.lane - b.lane);
}

/**
 * A wallet as every view shows it: exact for a hot wallet (its balances from the seqlocked read),
 * the main item as it is for a cold one (no extra read).
 */
export async function readExactWallet(table: TableContext, walletId: string): Promise<Wallet | undefined> {
  const item = await getItem(table, walletKeys.primary(walletId));
  if (!item) return undefined;
  const wallet = walletCodec.fromItem(item);
  if (!hotConfigOf(item)) return wallet;
  const parts = await readHotWallet(table, walletId, item);
  return parts ? { ...wallet, ...exactBalances(parts) } : mainAlone(table, walletId);
}

/** The wallet turned cold between the two reads: its main item alone is exact now. */
async function mainAlone(table: TableContext, walletId: string): Promise<Wallet | undefined> {
  const item = await getItem(table, walletKeys.primary(walletId));
  return item ? walletCodec.fromItem(item) : undefined;
}
