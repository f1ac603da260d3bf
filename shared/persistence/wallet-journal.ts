import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Page, PageRequest } from '../domain/types.js';
import { COLD_TXN_SHARDS, isSharded, txnShardsOf, type TxnShards } from './entities/shards.js';
import { transactionKeys } from './entities/transaction.js';
import { walletKeys } from './entities/wallet.js';
import type { Item } from './item.js';
import { createQueries, type Filter } from './queries.js';
import { isShardCursor, shardedPage } from './sharded-pages.js';
import { GSI } from './table-schema.js';
import type { TableContext } from './table-context.js';

type IndexSource = { index: (typeof GSI)[keyof typeof GSI]; partition: string };

/**
 * The journal records that moved a wallet's money: debited (GSI2, one shard per debit lane) and
 * credited (GSI3, one shard per credit partition). A cold wallet has one of each: today's two.
 */
export function walletJournalSources(walletId: string, shards: TxnShards = COLD_TXN_SHARDS) {
  const extra = (count: number, source: (shard: number) => IndexSource) =>
    Array.from({ length: Math.max(0, count - 1) }, (_, i) => source(i + 1));
  return [
    { index: GSI.GSI2, partition: transactionKeys.fromWallet(walletId) } as IndexSource,
    { index: GSI.GSI3, partition: transactionKeys.toWallet(walletId) },
    ...extra(shards.out, (lane) => ({ index: GSI.GSI2, partition: transactionKeys.fromWallet(walletId, lane) })),
    ...extra(shards.in, (partition) => ({ index: GSI.GSI3, partition: transactionKeys.toWallet(walletId, partition) })),
  ];
}

/** A wallet's shards as its main item says (an eventually consistent read: shards are set before they are used). */
export async function readTxnShards(table: TableContext, walletId: string): Promise<TxnShards> {
  const output = await table.client.send(
    new GetCommand({ TableName: table.tableName, Key: walletKeys.primary(walletId) }),
  );
  return txnShardsOf(output.Item);
}

const shardsInCursor = (startKey: Record<string, unknown>): TxnShards => {
  const [out, into] = Array.isArray(startKey.shards) ? (startKey.shards as unknown[]) : [];
  const count = (value: unknown) => (typeof value === 'number' && Number.isInteger(value) && value >= 1 ? value : 1);
  return { out: count(out), in: count(into) };
};

/**
 * A newest-first page of a wallet's journal records. A cold wallet's pages are mergedPages over
 * its two partitions, as before. A hot wallet's merge all its shards with a boundary cursor
 * (sharded-pages.ts) that also keeps the shard counts of the first page: shards added later hold
 * only newer records. `known` is the wallet's shards when the caller read its item anyway.
 */
export async function walletJournalPage<T>(
  table: TableContext,
  walletId: string,
  page: PageRequest,
  decode: (item: Item) => T,
  filter: Filter,
  known?: TxnShards,
): Promise<Page<T>> {
  const { mergedPages } = createQueries(table.client, table.tableName);
  const cold = (request: PageRequest) => mergedPages(walletJournalSources(walletId), request, decode, filter);
  const sharded = async (shards: TxnShards, request: PageRequest) => {
    const result = await shardedPage(
      table.client,
      table.tableName,
      walletJournalSources(walletId, shards),
      request,
      decode,
      { filter },
    );
    return result.lastKey ? { ...result, lastKey: { ...result.lastKey, shards: [shards.out, shards.in] } } : result;
  };
  if (page.startKey) return isShardCursor(page.startKey) ? sharded(shardsInCursor(page.startKey), page) : cold(page);
  if (known) return isSharded(known) ? sharded(known, page) : cold(page);
  // The shards are read beside the cold wallet's page (no added wait); a hot wallet's page is read again.
  const [shards, coldPage] = await Promise.all([readTxnShards(table, walletId), cold(page)]);
  return isSharded(shards) ? sharded(shards, page) : coldPage;
}
