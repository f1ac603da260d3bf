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
import { createQueries, listedPage } from './queries.js';
import { transferKeys } from './entities/transfer.js';
import { GSI } from './table-schema.js';
import type { TableContext } from './table-context.js';
import { createWalletReader, createWalletSnapshotReader } from './wallet-store.js';

/** Transfers still before their settlement: what must finish before the wallet can close. */
const OPEN_TRANSFER_FILTER = { expression: '#f_status IN (:f_initiated, :f_pending)', names: { '#f_status': 'status' }, values: { ':f_initiated': 'INITIATED', ':f_pending': 'PENDING' } };

export function createAgentStore(table: TableContext): AgentStore {
  const openTransfers = createQueries(table.client, table.tableName);
  return {
    ...createWalletReader(table),
    ...createWalletSnapshotReader(table),
    ...createApiKeyReader(table),
    ...createMainWalletReader(table),
    ...createIdempotencyStore(table),
    ...createCommitter(table, { ...walletWriters, ...apiKeyWriters, ...policyWriters, ...postingWriters, ...idempotencyWriters, ...auditWriters }),
    ...createIdempotencyCompleter(table),
    async hasOpenTransfers(walletId) {
      const page = await openTransfers.queryIndex(GSI.GSI2, transferKeys.ofWallet(walletId), { limit: 1 }, (item) => item, OPEN_TRANSFER_FILTER);
      return page.items.length > 0;
    },
    listAgents(organizationId, environment, includeDeleted, page) {
      // The organization's wallet listing, AGENT lines only; the wallets read by key (deleted ones when asked).
      return listedPage(
        table.client,
        table.tableName,
        walletListingKeys.partition(organizationId, environment),
        page,
        (listing) => (listing.walletType === 'AGENT' ? walletKeys.primary(walletListingCodec.walletIdOf(listing)) : undefined),
        (item) => {
          const wallet = walletCodec.fromItem(item);
          return wallet.walletType === 'AGENT' && (includeDeleted || !wallet.deletedAt) ? wallet : undefined;
        },
      );
    },
  };
}
