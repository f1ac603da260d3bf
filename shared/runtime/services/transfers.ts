import type { ExpiryScheduler } from '../../domain/expiries/ports.js';
import type { Environment } from '../../domain/tenancy.js';
import type { TransferRail, TransferStore, TransferWorkflows } from '../../domain/transfers/ports.js';
import { sandboxRail, unconfiguredRail } from '../../domain/transfers/sandbox-rail.js';
import { createTransferService, type TransferService } from '../../domain/transfers/transfer-service.js';
import { createTransferStore } from '../../persistence/transfer-store.js';
import { hostedUrl } from '../../config/hosted-urls.js';
import { paymentLinkTransfers } from '../../domain/payment-links/payment-link-transfers.js';
import type { TransferLinkRider } from '../../domain/transfers/transfer-link-rider.js';
import { createPaymentLinkReader } from '../../persistence/payment-link-store.js';
import type { Core } from '../core.js';
import { expiryScheduler } from '../expiries.js';
import { dataSealer } from '../sealing.js';
import { log } from '../../observability/log.js';
import { transferWorkflows } from '../workflows.js';

/** Transfers: the sandbox rail in SANDBOX; in PRODUCTION no rail provider is configured yet, so live transfers fail at submission. */
export function transferService(
  core: Core,
  overrides: {
    store?: TransferStore;
    workflows?: TransferWorkflows;
    rails?: Record<Environment, TransferRail>;
    expiries?: ExpiryScheduler | null;
  } = {},
): TransferService {
  const expiries = overrides.expiries === null ? undefined : (overrides.expiries ?? expiryScheduler(core));
  return createTransferService(
    { ...core.deps, store: overrides.store ?? createTransferStore(core.table) },
    {
      rails: overrides.rails ?? {
        SANDBOX: sandboxRail(core.clock, core.config.timeScale),
        PRODUCTION: unconfiguredRail,
      },
      sealer: dataSealer(core),
      workflows: overrides.workflows ?? transferWorkflows(core),
      // null: no expiry schedules (the reconciler, whose function has no Scheduler grant, releases clearings itself).
      expiries,
      linkRider: paymentLinkRider(core, expiries),
    },
  );
}

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
