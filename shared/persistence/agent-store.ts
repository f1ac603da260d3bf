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
import { listedPage } from './queries.js';
import type { TableContext } from './table-context.js';
import { createWalletReader, createWalletSnapshotReader } from './wallet-store.js';

export function createAgentStore(table: TableContext): AgentStore {
  return {
    ...createWalletReader(table),
    ...createWalletSnapshotReader(table),
    ...createApiKeyReader(table),
    ...createMainWalletReader(table),
    ...createIdempotencyStore(table),
    ...createCommitter(table, { ...walletWriters, ...apiKeyWriters, ...policyWriters, ...postingWriters, ...idempotencyWriters, ...auditWriters }),
    ...createIdempotencyCompleter(table),
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
