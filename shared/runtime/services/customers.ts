import { hostedUrl } from '../../config/hosted-urls.js';
import { createCustomerService, type CustomerService } from '../../domain/customers/customer-service.js';
import type { CustomerStore } from '../../domain/customers/ports.js';
import type { PaymentProcessor } from '../../domain/payment-methods/processor.js';
import { createCustomerStore } from '../../persistence/customer-store.js';
import type { Core } from '../core.js';
import { paymentProcessor } from '../processor.js';
import { dataSealer } from '../sealing.js';

export function customerService(
  core: Core,
  {
    store = createCustomerStore(core.table),
    processor = paymentProcessor(core),
  }: { store?: CustomerStore; processor?: PaymentProcessor } = {},
): CustomerService {
  return createCustomerService({
    store,
    clock: core.clock,
    ids: core.ids,
    sealer: dataSealer(core),
    processor,
    hostedUrl: (path) => hostedUrl(core.config, path),
  });
}
