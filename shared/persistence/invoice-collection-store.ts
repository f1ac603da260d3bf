import type { InvoiceCollectionStore } from '../domain/invoices/collection-ports.js';
import { createCommitter } from './change-writer.js';
import { collectionCodec, collectionKeys } from './entities/invoice-collection.js';
import { createInvoiceStore } from './invoice-store.js';
import { createQueries, equalityFilter } from './queries.js';
import { GSI } from './table-schema.js';
import { getItem, type TableContext } from './table-context.js';
import { auditWriters } from './writers/audit-writers.js';
import { idempotencyWriters } from './writers/idempotency-writers.js';
import { invoiceCollectionWriters } from './writers/invoice-collection-writers.js';
import { invoiceWriters } from './writers/invoice-writers.js';
import { postingWriters } from './writers/posting-writers.js';

/** The invoice store with the collection's items and changes (USDC deposits and receipts, recurring schedules, retries). */
export function createInvoiceCollectionStore(table: TableContext): InvoiceCollectionStore {
  const invoices = createInvoiceStore(table);
  const { queryIndex } = createQueries(table.client, table.tableName);
  const read = async <T>(key: Parameters<typeof getItem>[1], decode: (item: Record<string, unknown>) => T) => {
    const item = await getItem(table, key);
    return item ? decode(item) : undefined;
  };
  return {
    ...invoices,
    ...createCommitter(table, {
      ...invoiceWriters,
      ...invoiceCollectionWriters,
      ...postingWriters,
      ...idempotencyWriters,
      ...auditWriters,
    }),
    getUsdcDeposit: (invoiceId) => read(collectionKeys.deposit(invoiceId), collectionCodec.deposit),
    async getUsdcDepositByAddress(address) {
      const pointer = await getItem(table, collectionKeys.address(address));
      const invoiceId = pointer ? collectionCodec.invoiceIdOfAddress(pointer) : undefined;
      return invoiceId ? read(collectionKeys.deposit(invoiceId), collectionCodec.deposit) : undefined;
    },
    listUsdcReceipts: (scope, filter, page) =>
      queryIndex(
        GSI.GSI1,
        collectionKeys.receiptsOf(scope.organizationId, scope.environment),
        page,
        collectionCodec.receipt,
        equalityFilter({ status: filter.status }),
      ),
    getRecurringSchedule: (invoiceId) => read(collectionKeys.recurring(invoiceId), collectionCodec.recurring),
    getChargeRetries: (invoiceId) => read(collectionKeys.retries(invoiceId), collectionCodec.retries),
  };
}
