import type { InvoiceFilter, InvoiceStore } from '../domain/invoices/ports.js';
import { createCommitter } from './change-writer.js';
import { invoiceCodec, invoiceCounterOf, invoiceKeys, invoiceSlugCodec } from './entities/invoice.js';
import { createIdempotencyStore } from './idempotency-store.js';
import { createQueries, equalityFilter } from './queries.js';
import { GSI } from './table-schema.js';
import { getItem, type TableContext } from './table-context.js';
import { createWalletReader } from './wallet-store.js';
import { auditWriters } from './writers/audit-writers.js';
import { idempotencyWriters } from './writers/idempotency-writers.js';
import { invoiceWriters } from './writers/invoice-writers.js';
import { postingWriters } from './writers/posting-writers.js';

export function createInvoiceStore(table: TableContext): InvoiceStore {
  const { queryIndex } = createQueries(table.client, table.tableName);
  const getInvoice = async (invoiceId: string) => {
    const item = await getItem(table, invoiceKeys.primary(invoiceId));
    return item ? invoiceCodec.fromItem(item) : undefined;
  };
  /** One index per request: the wallet's or the customer's partition (the other field filters), else the organization's. */
  function partitionOf(
    scope: { organizationId: string; environment: 'SANDBOX' | 'PRODUCTION' },
    filter: InvoiceFilter,
  ) {
    if (filter.walletId !== undefined)
      return {
        index: GSI.GSI2,
        partition: invoiceKeys.ofWallet(scope.organizationId, scope.environment, filter.walletId),
        rest: { customerId: filter.customerId, status: filter.status },
      };
    if (filter.customerId !== undefined)
      return {
        index: GSI.GSI3,
        partition: invoiceKeys.ofCustomer(scope.organizationId, scope.environment, filter.customerId),
        rest: { status: filter.status },
      };
    return {
      index: GSI.GSI1,
      partition: invoiceKeys.ofOrganization(scope.organizationId, scope.environment),
      rest: { status: filter.status },
    };
  }
  return {
    ...createWalletReader(table),
    ...createIdempotencyStore(table),
    ...createCommitter(table, { ...invoiceWriters, ...postingWriters, ...idempotencyWriters, ...auditWriters }),
    getInvoice,
    async getInvoiceBySlug(slug) {
      const pointer = await getItem(table, invoiceKeys.slug(slug));
      const invoiceId = pointer ? invoiceSlugCodec.invoiceIdOf(pointer) : undefined;
      return invoiceId ? getInvoice(invoiceId) : undefined;
    },
    async lastInvoiceSequence(scope) {
      return invoiceCounterOf(await getItem(table, invoiceKeys.counter(scope.organizationId, scope.environment)));
    },
    listInvoices(scope, filter, page) {
      const { index, partition, rest } = partitionOf(scope, filter);
      return queryIndex(index, partition, page, invoiceCodec.fromItem, equalityFilter(rest));
    },
  };
}
