import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import Big from 'big.js';
import type { StatementEntry } from '../domain/types.js';
import type { WalletReader, WalletSnapshotReader, WalletStore } from '../domain/wallets/ports.js';
import { createCommitter } from './change-writer.js';
import { walletWriters } from './writers/wallet-writers.js';
import { postingWriters } from './writers/posting-writers.js';
import { auditWriters } from './writers/audit-writers.js';
import { ledgerEntryCodec, ledgerEntryKeys } from './entities/ledger-entry.js';
import { POLICY_ENTITY, policyCodec, policyKeys } from './entities/policy.js';
import { SPEND_COUNTER_ENTITY, spendCounterCodec } from './entities/spend-counter.js';
import { WALLET_ENTITY, walletCodec, walletKeys } from './entities/wallet.js';
import { createQueries } from './queries.js';
import { GSI } from './table-schema.js';
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
      // One consistent query of the wallet's partition from "POLICY#": policies, spend counters, the wallet.
      const output = await table.client.send(
        new QueryCommand({
          TableName: table.tableName,
          ConsistentRead: true,
          KeyConditionExpression: 'PK = :pk AND SK >= :from',
          ExpressionAttributeValues: { ':pk': walletKeys.partition(walletId), ':from': policyKeys.sortPrefix },
        }),
      );
      const items = output.Items ?? [];
      const walletItem = items.find((item) => item.entityType === WALLET_ENTITY);
      if (!walletItem) return undefined;
      return {
        wallet: walletCodec.fromItem(walletItem),
        policies: items.filter((item) => item.entityType === POLICY_ENTITY).map(policyCodec.fromItem),
        counters: items.filter((item) => item.entityType === SPEND_COUNTER_ENTITY).map(spendCounterCodec.fromItem),
      };
    },
  };
}

export function createWalletStore(table: TableContext): WalletStore {
  const { queryIndex } = createQueries(table.client, table.tableName);

  async function walletState(walletId: string): Promise<{ balance: Big; entryCount: number } | undefined> {
    const item = await getItem(table, walletKeys.primary(walletId));
    return item ? { balance: walletCodec.fromItem(item).balance, entryCount: walletCodec.entryCountOf(item) } : undefined;
  }

  return {
    ...createWalletReader(table),
    ...createCommitter(table, { ...walletWriters, ...postingWriters, ...auditWriters }),
    listWallets(organizationId, environment, page) {
      return queryIndex(GSI.GSI1, walletKeys.ofOrganization(organizationId, environment).GSI1PK, page, walletCodec.fromItem);
    },
    async getStatement(walletId, page) {
      // The first page anchors on the wallet balance; the wallet's entry count read before and
      // after the query proves no posting landed in between (else read again).
      const anchor = page.startKey?.balanceBefore;
      const startKey = page.startKey ? { PK: page.startKey.PK, SK: page.startKey.SK } : undefined;
      for (let attempt = 1; ; attempt++) {
        const before = anchor === undefined ? await walletState(walletId) : undefined;
        const result = await queryIndex(null, walletKeys.partition(walletId), { limit: page.limit, ...(startKey ? { startKey } : {}) }, ledgerEntryCodec.fromItem, undefined, ledgerEntryKeys.sortPrefix);
        const after = anchor === undefined ? await walletState(walletId) : undefined;
        if (anchor === undefined && before?.entryCount !== after?.entryCount && attempt < STATEMENT_READ_ATTEMPTS) continue;
        let running = anchor === undefined ? (after?.balance ?? new Big(0)) : new Big(String(anchor));
        const items: StatementEntry[] = result.items.map((entry) => {
          const line: StatementEntry = { transactionId: entry.transactionId, type: entry.transactionType, amount: entry.amount, balanceAfter: running, createdAt: entry.createdAt, ...(entry.description !== undefined ? { description: entry.description } : {}) };
          running = running.minus(entry.amount);
          return line;
        });
        return { items, ...(result.lastKey ? { lastKey: { ...result.lastKey, balanceBefore: running.toFixed() } } : {}) };
      }
    },
  };
}
