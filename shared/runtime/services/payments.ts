import { createPaymentService, type PaymentService } from '../../domain/payments/payment-service.js';
import type { PaymentStore } from '../../domain/payments/ports.js';
import { createPaymentStore } from '../../persistence/payment-store.js';
import type { Core } from '../core.js';
import { expiryScheduler } from '../expiries.js';

export function paymentService(
  core: Core,
  { store = createPaymentStore(core.table) }: { store?: PaymentStore } = {},
): PaymentService {
  return createPaymentService({ ...core.deps, store }, { expiries: expiryScheduler(core) });
}
