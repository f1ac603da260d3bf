import { hostedUrl } from '../../config/hosted-urls.js';
import { createPaymentLinkService, type PaymentLinkService } from '../../domain/payment-links/payment-link-service.js';
import type { PaymentLinkStore } from '../../domain/payment-links/ports.js';
import type { ClaimByRail } from '../../domain/payment-links/rail-claim-port.js';
import { createPaymentLinkStore } from '../../persistence/payment-link-store.js';
import type { Core } from '../core.js';
import { expiryScheduler } from '../expiries.js';

export function paymentLinkService(
  core: Core,
  overrides: { store?: PaymentLinkStore; claimByRail?: ClaimByRail } = {},
): PaymentLinkService {
  return createPaymentLinkService({
    ...core.deps,
    store: overrides.store ?? createPaymentLinkStore(core.table),
    hostedUrl: (path) => hostedUrl(core.config, path),
    expiries: expiryScheduler(core),
    // The ach/usdc claim (H2: payment-link-rail-claim.ts); until it is wired those methods answer INVALID_STATE.
    claimByRail: overrides.claimByRail ?? undefined,
    log: console,
  });
}
