import { ApiError } from '../../shared/domain/errors.js';
import type {
  ChargeRetries,
  CollectionChange,
  InvoiceCollectionStore,
  RecurringSchedule,
  UsdcDeposit,
  UsdcReceipt,
} from '../../shared/domain/invoices/collection-ports.js';
import { createMemoryInvoiceStore } from './memory-invoice-store.js';
import { newestFirst, pageOf } from './memory-money-table.js';

const COLLECTION_CHANGES: readonly string[] = [
  'putUsdcDeposit',
  'putUsdcReceipt',
  'putRecurringSchedule',
  'advanceRecurringSchedule',
  'cancelRecurringSchedule',
  'recordChargeFailure',
] satisfies CollectionChange['type'][];

const concurrent = () => new ApiError('CONCURRENT_UPDATE', 'changed meanwhile; retry.', { retryAfter: 1 });
const scheduleRefusal = (old: RecurringSchedule | undefined) =>
  old
    ? new ApiError('INVALID_STATE', `The recurring schedule is ${old.status}.`, { status: old.status })
    : new ApiError('INVALID_STATE', 'The invoice has no recurring schedule.');

/**
 * The memory invoice store with the collection's items, with the conditions of
 * invoice-collection-writers.ts. A commit checks the collection's changes first on copies, then
 * commits the rest through the invoice fake (all or nothing), then keeps the copies.
 */
export function createMemoryInvoiceCollectionStore() {
  const invoices = createMemoryInvoiceStore();
  let items = {
    deposits: new Map<string, UsdcDeposit>(),
    addresses: new Map<string, string>(),
    receipts: new Map<string, UsdcReceipt>(),
    schedules: new Map<string, RecurringSchedule>(),
    retries: new Map<string, ChargeRetries>(),
  };

  function apply(next: typeof items, change: CollectionChange): void {
    switch (change.type) {
      case 'putUsdcDeposit': {
        const { deposit } = change;
        if (next.deposits.has(deposit.invoiceId)) throw concurrent();
        next.deposits.set(deposit.invoiceId, deposit);
        next.addresses.set(deposit.address.toLowerCase(), deposit.invoiceId);
        return;
      }
      case 'putUsdcReceipt':
        next.receipts.set(change.receipt.id, change.receipt);
        return;
      case 'putRecurringSchedule':
        if (next.schedules.has(change.schedule.invoiceId))
          throw new ApiError('INVALID_STATE', 'The invoice has a recurring schedule already.');
        next.schedules.set(change.schedule.invoiceId, change.schedule);
        return;
      case 'advanceRecurringSchedule': {
        const old = next.schedules.get(change.invoiceId);
        if (!old || old.run !== change.fromRun || old.status !== 'ACTIVE') throw scheduleRefusal(old);
        next.schedules.set(old.invoiceId, { ...old, ...change.set });
        return;
      }
      case 'cancelRecurringSchedule': {
        const old = next.schedules.get(change.invoiceId);
        if (!old || old.status !== 'ACTIVE') throw scheduleRefusal(old);
        next.schedules.set(old.invoiceId, {
          ...old,
          status: 'CANCELLED',
          nextChargeAt: null,
          cancelledAt: change.cancelledAt,
        });
        return;
      }
      case 'recordChargeFailure': {
        const { retries } = change;
        const old = next.retries.get(retries.invoiceId);
        if (retries.failures === 1 ? old : old?.failures !== retries.failures - 1) throw concurrent();
        next.retries.set(
          retries.invoiceId,
          old ? { ...old, failures: retries.failures, lastDeclineCode: retries.lastDeclineCode } : retries,
        );
        return;
      }
    }
  }

  const store: InvoiceCollectionStore = {
    ...invoices.store,
    async commit(changes) {
      const next = Object.fromEntries(
        Object.entries(items).map(([k, map]) => [k, new Map(map as Map<string, unknown>)]),
      ) as typeof items;
      const rest = changes.filter((change) => {
        if (!COLLECTION_CHANGES.includes(change.type)) return true;
        apply(next, change as CollectionChange);
        return false;
      });
      if (rest.length > 0) await invoices.store.commit(rest as Parameters<typeof invoices.store.commit>[0]);
      items = next;
    },
    getUsdcDeposit: async (invoiceId) => items.deposits.get(invoiceId),
    async getUsdcDepositByAddress(address) {
      const invoiceId = items.addresses.get(address.toLowerCase());
      return invoiceId ? items.deposits.get(invoiceId) : undefined;
    },
    listUsdcReceipts: async (scope, filter, page) =>
      pageOf(
        [...items.receipts.values()]
          .filter((r) => r.organizationId === scope.organizationId && r.environment === scope.environment)
          .filter((r) => filter.status === undefined || r.status === filter.status)
          .sort((a, b) => newestFirst({ createdAt: a.receivedAt, id: a.id }, { createdAt: b.receivedAt, id: b.id })),
        page,
      ),
    getRecurringSchedule: async (invoiceId) => items.schedules.get(invoiceId),
    getChargeRetries: async (invoiceId) => items.retries.get(invoiceId),
  };
  return { store, table: invoices.table };
}
