import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import Big from 'big.js';
import { deltaOf } from '../domain/ledger/journal.js';
import type { StatementEntry } from '../domain/types.js';
import type { WalletReader, WalletSnapshotReader, WalletStore } from '../domain/wallets/ports.js';
import { createCommitter } from './change-writer.js';
import { walletWriters } from './writers/wallet-writers.js';
import { postingWriters } from './writers/posting-writers.js';
import { idempotencyWriters } from './writers/idempotency-writers.js';
import { auditWriters } from './writers/audit-writers.js';
import { POLICY_ENTITY, policyCodec, policyKeys } from './entities/policy.js';
import { journalCodec } from './entities/transaction.js';
import { COLD_TXN_SHARDS, txnShardsOf, type TxnShards } from './entities/shards.js';
import { spendCountersOf, WALLET_ENTITY, walletCodec, walletKeys } from './entities/wallet.js';
import { walletListingCodec, walletListingKeys } from './entities/wallet-listing.js';
import { createIdempotencyCompleter, createIdempotencyStore } from './idempotency-store.js';
import type { Item } from './item.js';
import { listedPage, type Filter } from './queries.js';
import { walletJournalPage } from './wallet-journal.js';
import { getItem, type TableContext } from './table-context.js';

/** Reads of a statement's first page before it gives up proving no posting landed in between. */
const STATEMENT_READ_ATTEMPTS = 4;

export function createWalletReader(table: TableContext): WalletReader {
  return {
    async getWallet(walletId) {
      const item = await getItem(table, walletKeys.primary(walletId));
      return item ? walletCodec.fromItem(item) : undefined;
    },
  };
}

export function createWalletSnapshotReader(table: TableContext): WalletSnapshotReader {
  return {
    async getWalletSnapshot(walletId) {
      // The wallet's partition from "POLICY#": its policies (deleted ones too), then the wallet
      // item with its spend. Every page: large policies must never push the wallet off the read.
      const items: Item[] = [];
      let startKey: Record<string, unknown> | undefined;
      do {
        const output = await table.client.send(
          new QueryCommand({
            TableName: table.tableName,
            ConsistentRead: true,
            KeyConditionExpression: 'PK = :pk AND SK >= :from',
            ExpressionAttributeValues: { ':pk': walletKeys.partition(walletId), ':from': policyKeys.sortPrefix },
            ...(startKey ? { ExclusiveStartKey: startKey } : {}),
          }),
        );
        items.push(...(output.Items ?? []));
        startKey = output.LastEvaluatedKey;
      } while (startKey);
      const walletItem = items.find((item) => item.entityType === WALLET_ENTITY);
      if (!walletItem) return undefined;
      return {
        wallet: walletCodec.fromItem(walletItem),
        policies: items.filter((item) => item.entityType === POLICY_ENTITY).map(policyCodec.fromItem),
        counters: spendCountersOf(walletItem),
      };
    },
  };
}

/** Records that moved money (queued, rejected and failed payments never did). */
const MOVED_MONEY: Filter = { expression: 'attribute_exists(postedAt)', names: {}, values: {} };

export function createWalletStore(table: TableContext): WalletStore {
  async function walletState(
    walletId: string,
  ): Promise<{ balance: Big; entryCount: number; shards: TxnShards } | undefined> {
    const item = await getItem(table, walletKeys.primary(walletId));
    return item
      ? {
          balance: walletCodec.fromItem(item).balance,
          entryCount: walletCodec.entryCountOf(item),
          shards: txnShardsOf(item),
        }
      : undefined;
  }

  return {
    ...createWalletReader(table),
    ...createIdempotencyStore(table),
    ...createIdempotencyCompleter(table),
    ...createCommitter(table, { ...walletWriters, ...postingWriters, ...idempotencyWriters, ...auditWriters }),
    listWallets(organizationId, environment, page) {
      return listedPage(
        table.client,
        table.tableName,
        walletListingKeys.partition(organizationId, environment),
        page,
        (listing) => walletKeys.primary(walletListingCodec.walletIdOf(listing)),
        walletCodec.fromItem,
      );
    },
    async getStatement(walletId, page) {
      // The first page anchors on the wallet balance; the wallet's posting count read before and
      // after the query proves no posting landed in between (else read again).
      const { balanceBefore: anchor, ...startKey } = page.startKey ?? {};
      for (let attempt = 1; ; attempt++) {
        const before = anchor === undefined ? await walletState(walletId) : undefined;
        const result = await walletJournalPage(
          table,
          walletId,
          { limit: page.limit, ...(page.startKey ? { startKey } : {}) },
          journalCodec.fromItem,
          MOVED_MONEY,
          before?.shards ?? COLD_TXN_SHARDS,
        );
        const after = anchor === undefined ? await walletState(walletId) : undefined;
        if (anchor === undefined && before?.entryCount !== after?.entryCount && attempt < STATEMENT_READ_ATTEMPTS)
          continue;
        let running = anchor === undefined ? (after?.balance ?? new Big(0)) : new Big(String(anchor));
        const items: StatementEntry[] = result.items.map((record) => {
          const amount = deltaOf(record, walletId);
          const line: StatementEntry = {
            transactionId: record.id,
            type: record.type,
            amount,
            balanceAfter: running,
            createdAt: record.postedAt ?? record.createdAt,
            ...(record.description !== undefined ? { description: record.description } : {}),
          };
          running = running.minus(amount);
          return line;
        });
        return {
          items,
          ...(result.lastKey ? { lastKey: { ...result.lastKey, balanceBefore: running.toFixed() } } : {}),
        };
      }
    },
  };
}
