import { hostedUrl } from '../../config/hosted-urls.js';
import { createCustomerService, type CustomerService } from '../../domain/customers/customer-service.js';
import type { CustomerStore } from '../../domain/customers/ports.js';
import type { PaymentProcessors } from '../../domain/payment-methods/processor.js';
import { createCustomerStore } from '../../persistence/customer-store.js';
import type { Core } from '../core.js';
import { paymentProcessors } from '../processor.js';
import { dataSealer } from '../sealing.js';

export function customerService(
  core: Core,
  {
    store = createCustomerStore(core.table),
    processors = paymentProcessors(core),
  }: { store?: CustomerStore; processors?: PaymentProcessors } = {},
): CustomerService {
  return createCustomerService({
    store,
    clock: core.clock,
    ids: core.ids,
    sealer: dataSealer(core),
    processors,
    hostedUrl: (path) => hostedUrl(core.config, path),
  });
}
