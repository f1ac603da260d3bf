import { hostedUrl } from '../../config/hosted-urls.js';
import type { ExpiryScheduler } from '../../domain/expiries/ports.js';
import type { InvoiceCollectionStore } from '../../domain/invoices/collection-ports.js';
import {
  createInvoiceCollectionService,
  type InvoiceCollectionService,
} from '../../domain/invoices/invoice-collection.js';
import { invoiceKernel, type InvoiceServiceDeps } from '../../domain/invoices/invoice-kernel.js';
import { invoiceLifecycle } from '../../domain/invoices/invoice-lifecycle.js';
import { invoicePayments } from '../../domain/invoices/invoice-payments.js';
import { invoiceSettlementScheduler } from '../../domain/invoices/invoice-recurring.js';
import { AUDIT } from '../../domain/audit/actions.js';
import type { PaymentProcessors } from '../../domain/payment-methods/processor.js';
import { createInvoiceCollectionStore } from '../../persistence/invoice-collection-store.js';
import type { Core } from '../core.js';
import { expiryScheduler } from '../expiries.js';
import { paymentProcessors } from '../processor.js';
import { log } from '../../observability/log.js';
import { invoiceParties } from './invoices.js';

/**
 * The collection's builder: the invoice service's own parts (kernel, lifecycle, payments) over the
 * collection's store (the invoice store with the collection's items), passed as the seams.
 */
export function invoiceCollectionService(
  core: Core,
  overrides: { store?: InvoiceCollectionStore; processors?: PaymentProcessors; expiries?: ExpiryScheduler } = {},
): InvoiceCollectionService {
  const processors = overrides.processors ?? paymentProcessors(core);
  const expiries = overrides.expiries ?? expiryScheduler(core);
  const store = overrides.store ?? createInvoiceCollectionStore(core.table);
  const parties = invoiceParties(core, processors);
  const deps: InvoiceServiceDeps = {
    ...core.deps,
    store,
    parties,
    processors,
    hostedUrl: (path) => hostedUrl(core.config, path),
    log,
    onPendingPayment: invoiceSettlementScheduler(expiries, core.deps.timeScale),
  };
  const kernel = invoiceKernel(deps);
  const lifecycle = invoiceLifecycle(deps, kernel);
  const payments = invoicePayments(deps, kernel);
  return createInvoiceCollectionService(
    { ...core.deps, store, expiries, parties, log },
    {
      withUrl: kernel.withUrl,
      auditOf: kernel.auditOf,
      eventOf: kernel.eventOf,
      load: kernel.load,
      chargeInvoice: payments.chargeInvoice,
      settlePendingPayment: payments.settlePendingPayment,
      async createFinalized(ctx, input) {
        const draft = await lifecycle.create(ctx, AUDIT.invoice.create, input);
        const finalized = await lifecycle.finalize(ctx, AUDIT.invoice.finalize, draft.id);
        return (await store.getInvoice(finalized.id)) ?? draft;
      },
    },
  );
}
