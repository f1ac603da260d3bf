import type { DisputeStore } from '../domain/disputes/ports.js';
import { createCommitter } from './change-writer.js';
import { disputeCodec, disputeKeys, fundsRefusalsCodec } from './entities/dispute.js';
import { createIdempotencyStore } from './idempotency-store.js';
import { createMainWalletReader } from './organization-store.js';
import { createTransactionReader } from './payment-store.js';
import { createQueries, equalityFilter } from './queries.js';
import { GSI } from './table-schema.js';
import { getItem, type TableContext } from './table-context.js';
import { createWalletReader } from './wallet-store.js';
import { auditWriters } from './writers/audit-writers.js';
import { disputeWriters } from './writers/dispute-writers.js';
import { idempotencyWriters } from './writers/idempotency-writers.js';
import { postingWriters } from './writers/posting-writers.js';

export function createDisputeStore(table: TableContext): DisputeStore {
  const { mergedPages } = createQueries(table.client, table.tableName);
  return {
    ...createWalletReader(table),
    ...createMainWalletReader(table),
    ...createTransactionReader(table),
    ...createIdempotencyStore(table),
    ...createCommitter(table, { ...disputeWriters, ...postingWriters, ...idempotencyWriters, ...auditWriters }),
    async getDispute(disputeId) {
      const item = await getItem(table, disputeKeys.primary(disputeId));
      return item ? disputeCodec.fromItem(item) : undefined;
    },
    async getFundsRefusals(transactionId) {
      const item = await getItem(table, fundsRefusalsCodec.key(transactionId));
      return item ? fundsRefusalsCodec.fromItem(item) : undefined;
    },
    /** Both sides' partitions (the organization's, or the wallet's) merged newest first: one dispute is never on both. */
    async listDisputes(scope, filter, count) {
      const { organizationId, environment } = scope;
      const partition =
        filter.walletId === undefined
          ? disputeKeys.ofOrganization(organizationId, environment)
          : disputeKeys.ofWallet(organizationId, environment, filter.walletId);
      const [initiated, received] = filter.walletId === undefined ? [GSI.GSI1, GSI.GSI2] : [GSI.GSI3, GSI.GSI4];
      const page = await mergedPages(
        [
          { index: initiated, partition },
          { index: received, partition },
        ],
        { limit: count },
        disputeCodec.fromItem,
        equalityFilter({ status: filter.status }),
      );
      return page.items;
    },
  };
}
