import type { AgentStore } from '../domain/agents/ports.js';
import { createCommitter } from './change-writer.js';
import { walletWriters } from './writers/wallet-writers.js';
import { apiKeyWriters } from './writers/api-key-writers.js';
import { policyWriters } from './writers/policy-writers.js';
import { postingWriters } from './writers/posting-writers.js';
import { idempotencyWriters } from './writers/idempotency-writers.js';
import { auditWriters } from './writers/audit-writers.js';
import { createApiKeyReader } from './api-key-store.js';
import { walletCodec, walletKeys } from './entities/wallet.js';
import { walletListingCodec, walletListingKeys } from './entities/wallet-listing.js';
import { createIdempotencyCompleter, createIdempotencyStore } from './idempotency-store.js';
import { createMainWalletReader } from './organization-store.js';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { listedPage } from './queries.js';
import { transferKeys } from './entities/transfer.js';
import { GSI } from './table-schema.js';
import type { TableContext } from './table-context.js';
import { createExactWalletReader, createWalletSnapshotReader } from './wallet-store.js';

/**
 * How many of a wallet's newest transfers the delete guard reads (one query, whatever the wallet's
 * history). An older transfer still open (a rail silent for a long time) is not seen: a deposit of
 * it then fails at settlement (WALLET_CLOSED), and a withdrawal holds money, which the guard sees.
 */
const RECENT_TRANSFERS_CHECKED = 100;

export function createAgentStore(table: TableContext): AgentStore {
  return {
    // The agent views and the budget answer show balances: exact for a hot wallet.
    ...createExactWalletReader(table),
    ...createWalletSnapshotReader(table),
    ...createApiKeyReader(table),
    ...createMainWalletReader(table),
    ...createIdempotencyStore(table),
    ...createCommitter(table, {
      ...walletWriters,
      ...apiKeyWriters,
      ...policyWriters,
      ...postingWriters,
      ...idempotencyWriters,
      ...auditWriters,
    }),
    ...createIdempotencyCompleter(table),
    async hasOpenTransfers(wallet) {
      // One read of the wallet's newest transfers (open ones are recent: they settle within days).
      const output = await table.client.send(
        new QueryCommand({
          TableName: table.tableName,
          IndexName: GSI.GSI2.name,
          KeyConditionExpression: '#pk = :pk',
          ExpressionAttributeNames: { '#pk': GSI.GSI2.partition, '#status': 'status' },
          ExpressionAttributeValues: {
            ':pk': transferKeys.ofWallet(wallet.organizationId, wallet.environment, wallet.id),
          },
          ProjectionExpression: '#status',
          ScanIndexForward: false,
          Limit: RECENT_TRANSFERS_CHECKED,
        }),
      );
      return (output.Items ?? []).some((item) => item.status === 'INITIATED' || item.status === 'PENDING');
    },
    listAgents(organizationId, environment, includeDeleted, page) {
      // The organization's wallet listing, AGENT lines only; the wallets read by key (deleted ones when asked).
      return listedPage(
        table.client,
        table.tableName,
        walletListingKeys.partition(organizationId, environment),
        page,
        (listing) =>
          listing.walletType === 'AGENT' ? walletKeys.primary(walletListingCodec.walletIdOf(listing)) : undefined,
        (item) => {
          const wallet = walletCodec.fromItem(item);
          return wallet.walletType === 'AGENT' && (includeDeleted || !wallet.deletedAt) ? wallet : undefined;
        },
      );
    },
  };
}
