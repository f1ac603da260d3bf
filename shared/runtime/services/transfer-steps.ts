import type { ExpiryScheduler } from '../../domain/expiries/ports.js';
import type { Environment } from '../../domain/tenancy.js';
import type { TransferRail, TransferStore } from '../../domain/transfers/ports.js';
import {
  createTransferStepsService,
  type TransferStepsService,
} from '../../domain/transfers/transfer-steps-service.js';
import { createTransferStore } from '../../persistence/transfer-store.js';
import type { Core } from '../core.js';
import { expiryScheduler } from '../expiries.js';
import { dataSealer } from '../sealing.js';
import { paymentLinkRider } from './payment-link-rider.js';
import { sandboxRail, unconfiguredRail } from '../../domain/transfers/sandbox-rail.js';

/** The rails: the sandbox rail in SANDBOX; in PRODUCTION no rail provider is configured yet, so live transfers fail at submission. */
export const transferRails = (core: Core): Record<Environment, TransferRail> => ({
  SANDBOX: sandboxRail(core.clock, core.config.timeScale),
  PRODUCTION: unconfiguredRail,
});

/**
 * The transfer steps alone (the transfer workflow's worker, the clearing expiry, the reconciler):
 * the same rails, sealer, schedules and payment-link rider as `transferService`, without the client
 * operations, so without the workflow start (the Step Functions client) they need.
 */
export function transferStepsService(
  core: Core,
  overrides: {
    store?: TransferStore;
    rails?: Record<Environment, TransferRail>;
    expiries?: ExpiryScheduler | null;
  } = {},
): TransferStepsService {
  const expiries = overrides.expiries === null ? undefined : (overrides.expiries ?? expiryScheduler(core));
  return createTransferStepsService(
    { ...core.deps, store: overrides.store ?? createTransferStore(core.table) },
    {
      rails: overrides.rails ?? transferRails(core),
      sealer: dataSealer(core),
      // null: no expiry schedules (the reconciler, whose function has no Scheduler grant, releases clearings itself).
      expiries,
      linkRider: paymentLinkRider(core, expiries),
    },
  );
}
