import { paymentLinkClaims } from './payment-link-claims.js';
import { paymentLinkCreation } from './payment-link-creation.js';
import { paymentLinkKernel, type PaymentLinkServiceDeps } from './payment-link-kernel.js';
import { paymentLinkLifecycle } from './payment-link-lifecycle.js';
import { paymentLinkReads } from './payment-link-reads.js';

export type { PaymentLinkServiceDeps } from './payment-link-kernel.js';

/**
 * Payment links (interface-spec 2.9, 3.4, 4.8; decisions.md section 6; docs/api.md "Payment links"),
 * by job: payment-link-creation.ts (create: hold, policies, approval), payment-link-reads.ts (get,
 * list, the public view), payment-link-lifecycle.ts (cancel, expiry), payment-link-claims.ts (the
 * public claim: wallet at once, ach/usdc through the rail claim). Mutating methods take (ctx, action, ...).
 */
export function createPaymentLinkService(deps: PaymentLinkServiceDeps) {
  const kernel = paymentLinkKernel(deps);
  const reads = paymentLinkReads(deps, kernel);
  const { create } = paymentLinkCreation(deps, kernel);
  const { cancel, expire, expireDue } = paymentLinkLifecycle(deps, kernel);
  const { claim } = paymentLinkClaims(deps, kernel, reads);
  return { create, get: reads.get, list: reads.list, getClaim: reads.getClaim, cancel, expire, expireDue, claim };
}

export type PaymentLinkService = ReturnType<typeof createPaymentLinkService>;
