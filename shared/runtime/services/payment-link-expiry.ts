import { hostedUrl } from '../../config/hosted-urls.js';
import { createPaymentLinkExpiry, type PaymentLinkExpiry } from '../../domain/payment-links/payment-link-expiry.js';
import type { PaymentLinkStore } from '../../domain/payment-links/ports.js';
import { log } from '../../observability/log.js';
import { createPaymentLinkStore } from '../../persistence/payment-link-store.js';
import type { Core } from '../core.js';
import { expiryScheduler } from '../expiries.js';

/** Payment links' expiry alone (the `expiry` and `expiry-sweep` workers): as `paymentLinkService` builds it, without the claims. */
export function paymentLinkExpiryService(core: Core, overrides: { store?: PaymentLinkStore } = {}): PaymentLinkExpiry {
  return createPaymentLinkExpiry({
    ...core.deps,
    store: overrides.store ?? createPaymentLinkStore(core.table),
    hostedUrl: (path) => hostedUrl(core.config, path),
    expiries: expiryScheduler(core),
    log,
  });
}
