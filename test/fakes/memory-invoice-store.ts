import { ApiError } from '../../shared/domain/errors.js';
import { INVOICE_STATES } from '../../shared/domain/invoices/invoice-states.js';
import type { InvoiceChange, InvoiceFilter, InvoiceStore } from '../../shared/domain/invoices/ports.js';
import type { Invoice } from '../../shared/domain/invoices/types.js';
import { createMemoryMoneyTable, newestFirst, pageOf } from './memory-money-table.js';

const INVOICE_CHANGES: readonly string[] = [
  'putInvoice',
  'finalizeInvoice',
  'transitionInvoice',
  'startInvoicePendingPayment',
  'clearInvoicePendingPayment',
  'recordInvoiceDecline',
] satisfies InvoiceChange['type'][];

const refusal = (old: Invoice | undefined) => {
  if (!old) return new ApiError('INVOICE_NOT_FOUND');
  if (old.status === 'FINALIZED' && old.pendingPayment)
    return new ApiError('INVALID_STATE', 'A bank debit of this invoice is in flight; wait for it to settle.', {
      status: old.status,
    });
  return new ApiError('INVALID_STATE', `The invoice is ${old.status}.`, { status: old.status });
};

/**
 * An in-memory InvoiceStore over the shared money table (memory-money-table.ts), with the
 * conditions of invoice-writers.ts; test/contracts/invoice-store-contract.ts holds it to the
 * DynamoDB store.
 */
export function createMemoryInvoiceStore() {
  const table = createMemoryMoneyTable({
    invoices: new Map<string, Invoice>(),
    invoiceSlugs: new Map<string, string>(),
    invoiceCounters: new Map<string, number>(),
  });
  type Next = typeof table.items;

  function apply(next: Next, change: InvoiceChange): void {
    const { invoices } = next;
    if (change.type === 'putInvoice') {
      if (invoices.has(change.invoice.id))
        throw new Error(`INVOICE#${change.invoice.id} already exists (id collision)`);
      invoices.set(change.invoice.id, change.invoice);
      return;
    }
    const old = invoices.get(change.invoiceId);
    switch (change.type) {
      case 'finalizeInvoice': {
        if (!old || !(INVOICE_STATES.finalize.from as readonly string[]).includes(old.status)) throw refusal(old);
        if (next.invoiceSlugs.has(change.slug)) throw new Error(`INVOICE_SLUG#${change.slug} already exists`);
        const counterKey = `${change.organizationId}#${change.environment}`;
        if ((next.invoiceCounters.get(counterKey) ?? 0) !== change.sequence - 1)
          throw new ApiError('CONCURRENT_UPDATE', 'Another invoice was numbered meanwhile; retry.', { retryAfter: 1 });
        invoices.set(old.id, {
          ...old,
          status: INVOICE_STATES.finalize.to,
          number: change.number,
          slug: change.slug,
          finalizedAt: change.finalizedAt,
        });
        next.invoiceSlugs.set(change.slug, old.id);
        next.invoiceCounters.set(counterKey, change.sequence);
        return;
      }
      case 'transitionInvoice': {
        const transition = INVOICE_STATES[change.trigger];
        const pending = change.pending;
        if (!old || !(transition.from as readonly string[]).includes(old.status)) throw refusal(old);
        if (pending === 'none' && old.pendingPayment) throw refusal(old);
        if (typeof pending === 'object' && old.pendingPayment?.processorChargeId !== pending.processorChargeId)
          throw refusal(old);
        const { status: _ignored, ...fields } = change.set;
        const updated: Invoice = { ...old, ...fields, status: transition.to };
        if (typeof pending === 'object') delete updated.pendingPayment;
        invoices.set(old.id, updated);
        return;
      }
      case 'startInvoicePendingPayment':
        if (!old || !(INVOICE_STATES.pay.from as readonly string[]).includes(old.status) || old.pendingPayment)
          throw refusal(old);
        invoices.set(old.id, { ...old, pendingPayment: change.pendingPayment });
        return;
      case 'recordInvoiceDecline': {
        if (!old) throw refusal(old);
        if ((old.declines?.count ?? 0) !== change.previousCount || (change.previousCount === 0 && old.declines))
          throw new ApiError('CONCURRENT_UPDATE', 'Another payment of this invoice was declined meanwhile; retry.', {
            retryAfter: 1,
          });
        invoices.set(old.id, { ...old, declines: change.declines });
        return;
      }
      case 'clearInvoicePendingPayment': {
        if (!old) throw refusal(old);
        if (old.pendingPayment?.processorChargeId !== change.processorChargeId)
          throw new ApiError('INVALID_STATE', 'No such bank debit is in flight.');
        const updated = { ...old };
        delete updated.pendingPayment;
        invoices.set(old.id, updated);
        return;
      }
    }
  }

  const matches = (filter: InvoiceFilter) => (invoice: Invoice) =>
    (filter.walletId === undefined || invoice.walletId === filter.walletId) &&
    (filter.customerId === undefined || invoice.customerId === filter.customerId) &&
    (filter.status === undefined || invoice.status === filter.status);

  const store: InvoiceStore = {
    getWallet: table.getWallet,
    getIdempotencySlot: table.getIdempotencySlot,
    commit: (changes) =>
      table.commit(changes, (next, change) => {
        if (!INVOICE_CHANGES.includes(change.type)) return false;
        apply(next, change as InvoiceChange);
        return true;
      }),
    getInvoice: async (invoiceId) => table.items.invoices.get(invoiceId),
    async getInvoiceBySlug(slug) {
      const invoiceId = table.items.invoiceSlugs.get(slug);
      return invoiceId ? table.items.invoices.get(invoiceId) : undefined;
    },
    lastInvoiceSequence: async (scope) =>
      table.items.invoiceCounters.get(`${scope.organizationId}#${scope.environment}`) ?? 0,
    listInvoices: async (scope, filter, page) =>
      pageOf(
        [...table.items.invoices.values()]
          .filter((i) => i.organizationId === scope.organizationId && i.environment === scope.environment)
          .filter(matches(filter))
          .sort(newestFirst),
        page,
      ),
  };
  return { store, table };
}
