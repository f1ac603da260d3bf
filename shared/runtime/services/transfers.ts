import type { ExpiryScheduler } from '../../domain/expiries/ports.js';
import type { Environment } from '../../domain/tenancy.js';
import type { TransferRail, TransferStore, TransferWorkflows } from '../../domain/transfers/ports.js';
import { createTransferService, type TransferService } from '../../domain/transfers/transfer-service.js';
import { createTransferStore } from '../../persistence/transfer-store.js';
import type { Core } from '../core.js';
import { expiryScheduler } from '../expiries.js';
import { dataSealer } from '../sealing.js';
import { transferWorkflows } from '../workflows.js';
import { paymentLinkRider } from './payment-link-rider.js';
import { transferRails } from './transfer-steps.js';

/**
 * Transfers: the sandbox rail in SANDBOX; in PRODUCTION no rail provider is configured yet, so live
 * transfers fail at submission. The functions that only run the steps build `transferStepsService`
 * (./transfer-steps.ts) instead: the same steps, without the client operations and the workflow start.
 */
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
      rails: overrides.rails ?? transferRails(core),
      sealer: dataSealer(core),
      workflows: overrides.workflows ?? transferWorkflows(core),
      // null: no expiry schedules (the reconciler, whose function has no Scheduler grant, releases clearings itself).
      expiries,
      linkRider: paymentLinkRider(core, expiries),
    },
  );
}
