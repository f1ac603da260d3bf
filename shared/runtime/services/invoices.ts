import { hostedUrl } from '../../config/hosted-urls.js';
import { createInvoiceService, type InvoiceService } from '../../domain/invoices/invoice-service.js';
import type { InvoiceParties, InvoiceStore } from '../../domain/invoices/ports.js';
import type { PaymentProcessors } from '../../domain/payment-methods/processor.js';
import { createCustomerStore } from '../../persistence/customer-store.js';
import { createInvoiceStore } from '../../persistence/invoice-store.js';
import { invoiceSettlementScheduler } from '../../domain/invoices/invoice-recurring.js';
import type { Core } from '../core.js';
import { expiryScheduler } from '../expiries.js';
import { paymentProcessors } from '../processor.js';
import { log } from '../../observability/log.js';
import { customerService } from './customers.js';

/** What invoices ask of the customers area: its service's visibility rules and paymentMethodForCharge, its reader. */
export function invoiceParties(core: Core, processors: PaymentProcessors): InvoiceParties {
  const store = createCustomerStore(core.table);
  const customers = customerService(core, { store, processors });
  return {
    async customerFor(ctx, customerId) {
      const customer = await customers.get(ctx, customerId);
      return { id: customer.id, name: customer.name, email: customer.email };
    },
    async customerOf(scope, customerId) {
      const customer = await store.getCustomer(scope, customerId);
      return customer && { id: customer.id, name: customer.name, email: customer.email };
    },
    paymentMethodForCharge: (scope, customerId, paymentMethodId) =>
      customers.paymentMethodForCharge(scope, customerId, paymentMethodId),
    merchantName: async (organizationId) => (await store.organizationName(organizationId)) ?? '',
  };
}

export function invoiceService(
  core: Core,
  overrides: { store?: InvoiceStore; processors?: PaymentProcessors; parties?: InvoiceParties } = {},
): InvoiceService {
  const processors = overrides.processors ?? paymentProcessors(core);
  return createInvoiceService({
    ...core.deps,
    store: overrides.store ?? createInvoiceStore(core.table),
    parties: overrides.parties ?? invoiceParties(core, processors),
    processors,
    hostedUrl: (path) => hostedUrl(core.config, path),
    log,
    onPendingPayment: invoiceSettlementScheduler(expiryScheduler(core), core.deps.timeScale),
  });
}
