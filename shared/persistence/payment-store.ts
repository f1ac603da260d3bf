import type { PaymentStore, TransactionReader } from '../domain/payments/ports.js';
import { createCommitter } from './change-writer.js';
import { paymentWriters } from './writers/payment-writers.js';
import { postingWriters } from './writers/posting-writers.js';
import { approvalWriters } from './writers/approval-writers.js';
import { idempotencyWriters } from './writers/idempotency-writers.js';
import { auditWriters } from './writers/audit-writers.js';
import { transactionCodec, transactionKeys } from './entities/transaction.js';
import { createIdempotencyStore } from './idempotency-store.js';
import { createMerchantReader } from './merchant-store.js';
import { createQueries, equalityFilter } from './queries.js';
import { GSI } from './table-schema.js';
import { getItem, type TableContext } from './table-context.js';
import { createWalletReader, createWalletSnapshotReader } from './wallet-store.js';

export function createTransactionReader(table: TableContext): TransactionReader {
  return {
    async getTransaction(transactionId) {
      const item = await getItem(table, transactionKeys.primary(transactionId));
      return item ? transactionCodec.fromItem(item) : undefined;
    },
  };
}

export function createPaymentStore(table: TableContext): PaymentStore {
  const { mergedPages } = createQueries(table.client, table.tableName);
  return {
    ...createWalletReader(table),
    ...createWalletSnapshotReader(table),
    ...createMerchantReader(table),
    ...createTransactionReader(table),
    ...createIdempotencyStore(table),
    ...createCommitter(table, { ...paymentWriters, ...postingWriters, ...approvalWriters, ...idempotencyWriters, ...auditWriters }),
    listTransactions(organizationId, environment, filter, page) {
      // Payments sent and received: the payer-side and payee-side indexes, merged.
      if (filter.walletId) {
        const sources = [
          { index: GSI.GSI2, partition: transactionKeys.fromWallet(filter.walletId) },
          { index: GSI.GSI3, partition: transactionKeys.toWallet(filter.walletId) },
        ];
        return mergedPages(sources, page, transactionCodec.fromItem, equalityFilter({ status: filter.status, environment }));
      }
      const sources = [
        { index: GSI.GSI1, partition: transactionKeys.fromOrganization(organizationId, environment) },
        { index: GSI.GSI4, partition: transactionKeys.toOrganization(organizationId, environment) },
      ];
      return mergedPages(sources, page, transactionCodec.fromItem, equalityFilter({ status: filter.status }));
    },
  };
}
