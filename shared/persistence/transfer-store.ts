import type { TransferFilter, TransferStore } from '../domain/transfers/ports.js';
import { createCommitter } from './change-writer.js';
import { TRANSFER_ENTITY, transferCodec, transferKeys, OPEN_TRANSFERS } from './entities/transfer.js';
import { createIdempotencyStore } from './idempotency-store.js';
import { createQueries, equalityFilter } from './queries.js';
import { GSI } from './table-schema.js';
import { getItem, type TableContext } from './table-context.js';
import { createWalletReader, createWalletSnapshotReader } from './wallet-store.js';
import { auditWriters } from './writers/audit-writers.js';
import { idempotencyWriters } from './writers/idempotency-writers.js';
import { postingWriters } from './writers/posting-writers.js';
import { paymentLinkWriters } from './writers/payment-link-writers.js';
import { transferWriters } from './writers/transfer-writers.js';
import { createBankAccountReader } from './bank-account-store.js';

/** A link transfer's end moves its payment link in the same transaction (the link's own writer and condition). */
const linkWriters = { transitionPaymentLink: paymentLinkWriters.transitionPaymentLink };

const filterOf = (filter: TransferFilter) => equalityFilter({ direction: filter.direction, status: filter.status });

export function createTransferStore(table: TableContext): TransferStore {
  const { queryIndex, mergedPages } = createQueries(table.client, table.tableName);
  return {
    ...createWalletReader(table),
    ...createWalletSnapshotReader(table),
    ...createIdempotencyStore(table),
    ...createCommitter(table, {
      ...transferWriters,
      ...postingWriters,
      ...idempotencyWriters,
      ...auditWriters,
      ...linkWriters,
    }),
    async getTransfer(transferId) {
      const item = await getItem(table, transferKeys.primary(transferId));
      return item ? transferCodec.fromItem(item) : undefined;
    },
    async listDueTransfers(now, limit) {
      return (await OPEN_TRANSFERS.listDue(table, now, limit, TRANSFER_ENTITY)).map(transferCodec.fromItem);
    },
    listTransfers(scope, filter, page) {
      return queryIndex(
        GSI.GSI1,
        transferKeys.ofOrganization(scope.organizationId, scope.environment),
        page,
        transferCodec.fromItem,
        filterOf(filter),
      );
    },
    listWalletTransfers(scope, walletId, filter, page) {
      const partition = transferKeys.ofWallet(scope.organizationId, scope.environment, walletId);
      return mergedPages(
        [
          { index: GSI.GSI2, partition },
          { index: GSI.GSI3, partition },
        ],
        page,
        transferCodec.fromItem,
        filterOf(filter),
      );
    },
    ...createBankAccountReader(table),
  };
}
