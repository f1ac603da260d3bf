import { paymentLinkKernel, type PaymentLinkServiceDeps } from './payment-link-kernel.js';
import { paymentLinkLifecycle } from './payment-link-lifecycle.js';

/**
 * A link's expiry alone (the expiry queue's message, the expiry sweep's safety net): `expire` and
 * `expireDue` of payment-link-lifecycle.ts over the same kernel as the whole service
 * (payment-link-service.ts), without creation, reads and claims (nor the rail claim's transfer
 * store, sealer and workflow start).
 */
export function createPaymentLinkExpiry(deps: Omit<PaymentLinkServiceDeps, 'claimByRail'>) {
  const { expire, expireDue } = paymentLinkLifecycle(deps, paymentLinkKernel(deps));
  return { expire, expireDue };
}

export type PaymentLinkExpiry = ReturnType<typeof createPaymentLinkExpiry>;
