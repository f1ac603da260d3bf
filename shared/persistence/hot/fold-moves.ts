import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, BatchWriteCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import Big from 'big.js';
import { readBig, readInt, toNumberAttribute } from '../client.js';
import { HOT_INBOX_ENTITY, hotAttributes, hotKeys } from '../entities/hot-wallet.js';
import { walletKeys } from '../entities/wallet.js';
import { str, type Item } from '../item.js';
import { getItem, type TableContext } from '../table-context.js';
import { transactWrite, type TransactWrite } from '../transact.js';
import { hotConfigOf, PENDING_ATTRIBUTE, pendingOf } from './hot-items.js';

/**
 * The fold moves of a hot wallet's keeper (design 2.1): inbox -> accumulator within one credit
 * partition, accumulator -> main. Each moves money within the wallet in ONE write guarded by the
 * accumulator's `seq` or main's `folded#g`, so a crashed or a second keeper is harmless: the
 * loser's condition fails, nothing is written, and the move answers `false`.
 *
 * Inbox -> accumulator is one Update of the accumulator that credits the batch AND lists its
 * transaction ids in `pending` (readers leave the listed inbox items out: hot-items.ts
 * partitionOf), then the items' plain Deletes (1 WCU each, where a transaction's Delete costs 2),
 * then `pending` removed. A keeper that died in between leaves `pending`: the next fold of the
 * partition (or a straggler bounce) finishes it first. Docs: docs/performance.md "Issue 25".
 */

/** Inbox items one fold takes at most (its `pending` list stays a few KB: a few WCU per fold). */
export const FOLD_BATCH = 98;

/**
 * When the stream's fold (keeper-binding.ts foldInbox) folds a partition: once it holds
 * FOLD_MIN_BATCH credits, or one of them is FOLD_MAX_WAIT_MS old. A fold costs two writes of the
 * accumulator besides its deletes, so folds of one or two credits would cost more per credit than
 * the credit's own Delete; a wallet's exact read counts the inbox meanwhile, and a partition left
 * with a few credits is folded by its next credit's batch or the minute keeper (runKeeperOnce).
 */
export const FOLD_MIN_BATCH = 10;
export const FOLD_MAX_WAIT_MS = 1000;

/** A fold that may wait: fold only `minBatch` credits or more, or when one was created before `before` (ISO). */
export interface FoldWhen {
  minBatch: number;
  before: string;
}

/** Deletes of one BatchWriteItem request (DynamoDB's limit). */
const DELETE_BATCH = 25;

/** A keeper's condition failed: another keeper (or a payment) moved the items first. Nothing was written. */
export class KeeperRaced extends Error {
  constructor(what: string) {
    super(`keeper move raced: ${what}`);
    this.name = 'KeeperRaced';
  }
}

/** Runs one keeper transaction; false when its guard failed (someone else moved first). */
export async function keeperTransaction(table: TableContext, writes: TransactWrite[]): Promise<boolean> {
  try {
    await transactWrite(table.client, writes, table.transact);
    return true;
  } catch (error) {
    if (error instanceof KeeperRaced) return false;
    throw error;
  }
}

export const raced = (what: string) => () => new KeeperRaced(what);

/** A guard on a counter as read: equal to it, or absent when it was read as 0. */
export function counterIs(name: string, value: string, read: Big | number): string {
  const zero = typeof read === 'number' ? read === 0 : read.eq(0);
  return zero ? `(attribute_not_exists(${name}) OR ${name} = ${value})` : `${name} = ${value}`;
}

/** The oldest inbox items of partition g not being deleted, and the accumulator (seq, pending), as one consistent query read them. */
async function readInbox(
  table: TableContext,
  walletId: string,
  partition: number,
): Promise<{ seq: number; accExists: boolean; pending: string[]; items: Item[] }> {
  const output = await table.client.send(
    new QueryCommand({
      TableName: table.tableName,
      ConsistentRead: true,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': hotKeys.creditPartition(walletId, partition) },
      // the accumulator (#ACC) sorts before the inbox items (TXN#...): the accumulator and FOLD_BATCH items.
      Limit: FOLD_BATCH + 1,
    }),
  );
  const items = output.Items ?? [];
  const acc = items.find((item) => item.SK === '#ACC');
  const pending = pendingOf(acc);
  const listed = new Set(pending);
  return {
    seq: readInt(acc?.seq),
    accExists: acc !== undefined,
    pending,
    items: items.filter((item) => item.entityType === HOT_INBOX_ENTITY && !listed.has(str(item.transactionId))),
  };
}

/**
 * The end of a fold whose credit is written (the accumulator at `seq` lists `pending`): the
 * listed inbox items deleted (plain Deletes, idempotent), then `pending` removed, unless another
 * keeper finished it first. Throws when a delete fails: `pending` stays, and the next fold ends it.
 */
export async function finishFold(
  table: TableContext,
  walletId: string,
  partition: number,
  seq: number,
  pending: readonly string[],
): Promise<void> {
  const deletes = pending.map((transactionId) => ({
    DeleteRequest: { Key: hotKeys.inboxItem(walletId, partition, transactionId) },
  }));
  await Promise.all(
    Array.from({ length: Math.ceil(deletes.length / DELETE_BATCH) }, async (_, i) => {
      let requests: unknown[] = deletes.slice(i * DELETE_BATCH, (i + 1) * DELETE_BATCH);
      for (let attempt = 0; requests.length > 0; attempt++) {
        if (attempt >= 10) throw new Error(`inbox deletes of partition ${partition} left unprocessed`);
        const output = await table.client.send(
          new BatchWriteCommand({ RequestItems: { [table.tableName]: requests as never } }),
        );
        requests = output.UnprocessedItems?.[table.tableName] ?? [];
      }
    }),
  );
  try {
    await table.client.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: hotKeys.accumulator(walletId, partition),
        UpdateExpression: 'REMOVE #pending',
        ConditionExpression: 'seq = :seq AND attribute_exists(#pending)',
        ExpressionAttributeNames: { '#pending': PENDING_ATTRIBUTE },
        ExpressionAttributeValues: { ':seq': seq },
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}

/**
 * Inbox -> accumulator of credit partition g: ADD credited Σ, entryCount k, seq 1 and SET pending
 * (the batch's ids) on the accumulator (CONDITION seq = as read, no pending), then the batch's
 * inbox items deleted and pending removed (finishFold). A fold left pending is finished first.
 * With `when`, a partition not due yet is left alone. Answers how many credits it folded (0:
 * nothing to fold, not due, or raced).
 */
export async function foldPartition(
  table: TableContext,
  walletId: string,
  partition: number,
  when?: FoldWhen,
): Promise<number> {
  let read = await readInbox(table, walletId, partition);
  if (read.pending.length > 0) {
    await finishFold(table, walletId, partition, read.seq, read.pending);
    read = await readInbox(table, walletId, partition);
    if (read.pending.length > 0) return 0;
  }
  const { seq, accExists, items } = read;
  if (!accExists || items.length === 0) return 0;
  if (when && items.length < when.minBatch && !items.some((item) => str(item.createdAt) < when.before)) return 0;
  const batch = items.slice(0, FOLD_BATCH);
  const total = batch.reduce((sum, item) => sum.plus(readBig(item.amount)), new Big(0));
  const ids = batch.map((item) => str(item.transactionId));
  try {
    await table.client.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: hotKeys.accumulator(walletId, partition),
        UpdateExpression: 'ADD credited :sum, entryCount :k, seq :one SET #pending = :ids',
        // A closed wallet's accumulator is marked (hot-close.ts): its late credits are bounced, never folded.
        ConditionExpression:
          'attribute_exists(PK) AND seq = :seen AND attribute_not_exists(#pending) AND attribute_not_exists(closedAt)',
        ExpressionAttributeNames: { '#pending': PENDING_ATTRIBUTE },
        ExpressionAttributeValues: {
          ':sum': toNumberAttribute(total),
          ':k': batch.length,
          ':one': 1,
          ':seen': seq,
          ':ids': ids,
        },
      }),
    );
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return 0;
    throw error;
  }
  await finishFold(table, walletId, partition, seq + 1, ids);
  return batch.length;
}

/** The accumulators' `credited` of partitions 0..count-1 (consistent). */
export async function readCredited(table: TableContext, walletId: string, count: number): Promise<Map<number, Big>> {
  const credited = new Map<number, Big>();
  let keys: Record<string, unknown>[] = Array.from({ length: count }, (_, g) => ({
    ...hotKeys.accumulator(walletId, g),
  }));
  while (keys.length > 0) {
    const output = await table.client.send(
      new BatchGetCommand({ RequestItems: { [table.tableName]: { Keys: keys, ConsistentRead: true } } }),
    );
    for (const item of output.Responses?.[table.tableName] ?? [])
      credited.set(Number(str(item.PK).split('#').pop()), readBig(item.credited));
    keys = output.UnprocessedKeys?.[table.tableName]?.Keys ?? [];
  }
  return credited;
}

/**
 * Accumulators -> main, one main-only write for every partition with credits main does not hold:
 * ADD balance Σ (credited_g − folded_g), seq 1, SET folded#g = credited_g, CONDITION folded#g as
 * read and the wallet not closed (a closed wallet's stragglers are bounced, never folded).
 * `credited` is monotone, so a stale read only folds less. Answers the amount folded (0 when
 * nothing was due or the move raced).
 */
export async function foldIntoMain(table: TableContext, walletId: string): Promise<Big> {
  const main = await getItem(table, walletKeys.primary(walletId));
  const partitions = main ? Math.max(hotConfigOf(main)?.partitions ?? 0, foldedPartitions(main)) : 0;
  if (!main || main.deletedAt || partitions === 0) return new Big(0);
  const credited = await readCredited(table, walletId, partitions);
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':one': 1 };
  const sets: string[] = [];
  const conditions = ['attribute_exists(PK)', 'attribute_not_exists(deletedAt)'];
  let delta = new Big(0);
  for (const [g, value] of credited) {
    const attribute = hotAttributes.folded(g);
    const folded = main[attribute] === undefined ? new Big(0) : readBig(main[attribute]);
    if (!value.gt(folded)) continue;
    delta = delta.plus(value.minus(folded));
    names[`#f${g}`] = attribute;
    values[`:c${g}`] = toNumberAttribute(value);
    values[`:p${g}`] = toNumberAttribute(folded);
    sets.push(`#f${g} = :c${g}`);
    conditions.push(counterIs(`#f${g}`, `:p${g}`, folded));
  }
  if (sets.length === 0) return new Big(0);
  values[':delta'] = toNumberAttribute(delta);
  const moved = await keeperTransaction(table, [
    {
      item: {
        Update: {
          TableName: table.tableName,
          Key: walletKeys.primary(walletId),
          UpdateExpression: `SET ${sets.join(', ')} ADD balance :delta, seq :one`,
          ConditionExpression: conditions.join(' AND '),
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        },
      },
      onConditionFailed: raced('main folded#g'),
    },
  ]);
  return moved ? delta : new Big(0);
}

/** The partitions main has folded from (a demoted wallet keeps its folded#g; a closed one has one per partition). */
export function foldedPartitions(main: Item): number {
  const indexes = Object.keys(main)
    .filter((name) => name.startsWith('folded#'))
    .map((name) => Number(name.slice('folded#'.length)) + 1);
  return Math.max(0, ...indexes);
}

/** Fold rounds of foldAll before it stops (each folds up to FOLD_BATCH credits per partition). */
const FOLD_ALL_ROUNDS = 20;

/**
 * Every credit of the wallet into main: each partition's inbox into its accumulator (all
 * partitions at once, FOLD_BATCH credits per transaction), then the accumulators into main. Used by
 * the keeper, by demotion and close, and by a payment's slow path when unfolded credits would
 * make the difference (the guards make it safe beside the keeper). Answers the amount added to
 * main's balance.
 */
export async function foldAll(table: TableContext, walletId: string): Promise<Big> {
  const main = await getItem(table, walletKeys.primary(walletId));
  const hot = main ? hotConfigOf(main) : undefined;
  if (!main || main.deletedAt) return new Big(0);
  const partitions = hot?.partitions ?? foldedPartitions(main);
  await Promise.all(
    Array.from({ length: partitions }, async (_, g) => {
      for (let round = 0; round < FOLD_ALL_ROUNDS; round++) {
        const folded = await foldPartition(table, walletId, g);
        if (folded === 0 && !(await hasInbox(table, walletId, g))) return;
      }
    }),
  );
  let total = new Big(0);
  for (let round = 0; round < 3; round++) {
    const folded = await foldIntoMain(table, walletId);
    total = total.plus(folded);
    if (await mainHoldsEveryCredit(table, walletId, partitions)) break;
  }
  return total;
}

async function hasInbox(table: TableContext, walletId: string, partition: number): Promise<boolean> {
  return (await readInbox(table, walletId, partition)).items.length > 0;
}

async function mainHoldsEveryCredit(table: TableContext, walletId: string, partitions: number): Promise<boolean> {
  const [main, credited] = await Promise.all([
    getItem(table, walletKeys.primary(walletId)),
    readCredited(table, walletId, partitions),
  ]);
  if (!main) return true;
  return [...credited].every(([g, value]) => {
    const folded = main[hotAttributes.folded(g)];
    return value.eq(folded === undefined ? new Big(0) : readBig(folded));
  });
}
