import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ApiError } from '../../domain/errors.js';
import { derivedId } from '../../domain/ledger/derived-ids.js';
import { postingLegsOf } from '../../domain/ledger/journal.js';
import { reversalLegs } from '../../domain/ledger/movements.js';
import type { Posting } from '../../domain/ledger/posting.js';
import { HOT_INBOX_ENTITY, hotKeys } from '../entities/hot-wallet.js';
import { journalCodec, transactionKeys } from '../entities/transaction.js';
import { walletKeys } from '../entities/wallet.js';
import { readInt } from '../client.js';
import { str, type Item } from '../item.js';
import { getItem, type TableContext } from '../table-context.js';
import { transactWrite, type TransactWrite } from '../transact.js';
import { postingWriters } from '../writers/posting-writers.js';
import { finishFold, KeeperRaced, raced } from './fold-moves.js';
import { PENDING_ATTRIBUTE, pendingOf } from './hot-items.js';

/** Stragglers bounced per partition and run. */
const BOUNCE_BATCH = 25;

/**
 * The safety net of a closed hot wallet (design 2.1; decisions.md section 13): a credit that landed
 * in its inbox after the close (routed from a cache older than the close) is never folded into the
 * closed wallet; it goes back to its payer as a REVERSAL of the original movement, in ONE
 * transaction: the reversal's journal record (its id derived from the original's, so a second
 * keeper's bounce collides), the mirror legs of everyone but the closed wallet, the original
 * POSTED -> REVERSED, the Delete of the inbox item standing in for the closed wallet's leg, and
 * the accumulator's seq moved (a fold that read the item before cannot credit it too: fold-moves.ts).
 * Never lost: an item whose bounce fails stays for the next run (and the ledger check reports it).
 * Answers how many it bounced.
 */
export async function bounceStragglers(table: TableContext, walletId: string, partition: number): Promise<number> {
  const main = await getItem(table, walletKeys.primary(walletId));
  if (!main?.deletedAt) return 0;
  // A fold's credited items (the accumulator's `pending`) are deleted, never bounced: finished first.
  const acc = await getItem(table, hotKeys.accumulator(walletId, partition));
  if (pendingOf(acc).length > 0) await finishFold(table, walletId, partition, readInt(acc?.seq), pendingOf(acc));
  const output = await table.client.send(
    new QueryCommand({
      TableName: table.tableName,
      ConsistentRead: true,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :txn)',
      ExpressionAttributeValues: { ':pk': hotKeys.creditPartition(walletId, partition), ':txn': hotKeys.inboxPrefix },
      Limit: BOUNCE_BATCH,
    }),
  );
  let bounced = 0;
  for (const item of output.Items ?? []) {
    if (item.entityType !== HOT_INBOX_ENTITY) continue;
    if (await bounce(table, walletId, partition, item)) bounced++;
  }
  return bounced;
}

async function bounce(table: TableContext, walletId: string, partition: number, inbox: Item): Promise<boolean> {
  const originalId = str(inbox.transactionId);
  const originalItem = await getItem(table, transactionKeys.primary(originalId));
  if (!originalItem) return false;
  const original = journalCodec.fromItem(originalItem);
  const at = new Date().toISOString();
  const posting: Posting = {
    transactionId: await derivedId('transaction', `hot-bounce:${originalId}`),
    type: 'REVERSAL',
    organizationId: original.organizationId,
    environment: original.environment,
    currency: 'USD',
    legs: reversalLegs(postingLegsOf(original)),
    createdAt: at,
    description: 'Returned: the receiving wallet was closed',
    attributes: {
      from: original.to,
      to: original.from,
      amount: original.amount,
      fee: '0.00',
      status: 'POSTED',
      postedAt: at,
      reversalOf: original.id,
    },
    record: 'create',
    reverses: original.id,
  };
  const closedMain = walletKeys.primary(walletId);
  // The accumulator's seq is bumped, so a fold that read this item before cannot credit it too (fold-moves.ts).
  const acc = await getItem(table, hotKeys.accumulator(walletId, partition));
  if (!acc || pendingOf(acc).length > 0) return false;
  const writes: TransactWrite[] = postingWriters
    .posting(table.tableName, { type: 'posting', posting })
    // The closed wallet's leg is the inbox item itself (the money never reached main).
    .filter(({ item }) => !(item.Update?.Key?.PK === closedMain.PK && item.Update.Key.SK === closedMain.SK))
    .concat({
      item: {
        Delete: {
          TableName: table.tableName,
          Key: hotKeys.inboxItem(walletId, partition, originalId),
          ConditionExpression: 'attribute_exists(PK)',
        },
      },
      onConditionFailed: raced(`inbox item ${originalId}`),
    })
    .concat({
      item: {
        Update: {
          TableName: table.tableName,
          Key: hotKeys.accumulator(walletId, partition),
          UpdateExpression: 'ADD seq :one',
          ConditionExpression: 'seq = :seen AND attribute_not_exists(#pending)',
          ExpressionAttributeNames: { '#pending': PENDING_ATTRIBUTE },
          ExpressionAttributeValues: { ':one': 1, ':seen': readInt(acc.seq) },
        },
      },
      onConditionFailed: raced(`accumulator ${partition}`),
    });
  try {
    await transactWrite(table.client, writes, table.transact);
    return true;
  } catch (error) {
    if (error instanceof KeeperRaced || error instanceof ApiError) return false;
    throw error;
  }
}
