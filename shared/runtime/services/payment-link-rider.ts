import { hostedUrl } from '../../config/hosted-urls.js';
import type { ExpiryScheduler } from '../../domain/expiries/ports.js';
import { paymentLinkTransfers } from '../../domain/payment-links/payment-link-transfers.js';
import type { TransferLinkRider } from '../../domain/transfers/transfer-link-rider.js';
import { log } from '../../observability/log.js';
import { createPaymentLinkReader } from '../../persistence/payment-link-store.js';
import type { Core } from '../core.js';

/** A payment link's claim transfer ends with its link (settled, ACTIVE again or expired): every builder of transfers passes it. */
export function paymentLinkRider(core: Core, expiries: ExpiryScheduler | undefined): TransferLinkRider {
  return paymentLinkTransfers({
    links: createPaymentLinkReader(core.table),
    ids: core.deps.ids,
    hostedUrl: (path) => hostedUrl(core.config, path),
    expiries,
    log,
  });
}
