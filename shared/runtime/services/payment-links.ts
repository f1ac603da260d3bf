import { hostedUrl } from '../../config/hosted-urls.js';
import { createPaymentLinkService, type PaymentLinkService } from '../../domain/payment-links/payment-link-service.js';
import type { PaymentLinkStore } from '../../domain/payment-links/ports.js';
import type { ClaimByRail } from '../../domain/payment-links/rail-claim-port.js';
import { createRailClaim } from '../../domain/payment-links/payment-link-rail-claim.js';
import { createTransferCounterparties } from '../../domain/transfers/transfer-counterparties.js';
import { createPaymentLinkStore } from '../../persistence/payment-link-store.js';
import { createTransferStore } from '../../persistence/transfer-store.js';
import type { Core } from '../core.js';
import { expiryScheduler } from '../expiries.js';
import { dataSealer } from '../sealing.js';
import { log } from '../../observability/log.js';
import { transferWorkflows } from '../workflows.js';

export function paymentLinkService(
  core: Core,
  overrides: { store?: PaymentLinkStore; claimByRail?: ClaimByRail } = {},
): PaymentLinkService {
  return createPaymentLinkService({
    ...core.deps,
    store: overrides.store ?? createPaymentLinkStore(core.table),
    hostedUrl: (path) => hostedUrl(core.config, path),
    expiries: expiryScheduler(core),
    // The ach/usdc claim: a withdrawal adopting the link's hold (payment-link-rail-claim.ts).
    claimByRail: overrides.claimByRail ?? railClaim(core),
    log,
  });
}

/** The ach/usdc claim: its transfer is written by the transfer store (with the link's transition) and run by the transfer workflow. */
function railClaim(core: Core): ClaimByRail {
  const store = createTransferStore(core.table);
  return createRailClaim({
    store,
    counterparties: createTransferCounterparties(store, dataSealer(core)),
    workflows: transferWorkflows(core),
    ids: core.deps.ids,
    timeScale: core.deps.timeScale,
    log,
  });
}
