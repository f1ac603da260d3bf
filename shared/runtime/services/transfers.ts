import type { ExpiryScheduler } from '../../domain/expiries/ports.js';
import type { Environment } from '../../domain/tenancy.js';
import type { TransferRail, TransferStore, TransferWorkflows } from '../../domain/transfers/ports.js';
import {
  createTransferClientService,
  createTransferService,
  type TransferClientService,
  type TransferService,
  type TransferServiceOptions,
} from '../../domain/transfers/transfer-service.js';
import { createTransferStore } from '../../persistence/transfer-store.js';
import type { Core } from '../core.js';
import { expiryScheduler } from '../expiries.js';
import { dataSealer } from '../sealing.js';
import { transferWorkflows } from '../workflows.js';
import { paymentLinkRider } from './payment-link-rider.js';
import { transferRails } from './transfer-steps.js';

type TransferOverrides = {
  store?: TransferStore;
  workflows?: TransferWorkflows;
  rails?: Record<Environment, TransferRail>;
  expiries?: ExpiryScheduler | null;
};

function transferDeps(core: Core, overrides: TransferOverrides) {
  const expiries = overrides.expiries === null ? undefined : (overrides.expiries ?? expiryScheduler(core));
  const options: TransferServiceOptions = {
    rails: overrides.rails ?? transferRails(core),
    sealer: dataSealer(core),
    workflows: overrides.workflows ?? transferWorkflows(core),
    // null: no expiry schedules (the reconciler, whose function has no Scheduler grant, releases clearings itself).
    expiries,
    linkRider: paymentLinkRider(core, expiries),
  };
  return [{ ...core.deps, store: overrides.store ?? createTransferStore(core.table) }, options] as const;
}

/**
 * Transfers, the whole service (the container: every operation, and the tests that run the steps
 * too): the sandbox rail in SANDBOX; in PRODUCTION no rail provider is configured yet, so live
 * transfers fail at submission. The functions build the part they run: `transferClientService`
 * (the transfers group's operations) or `transferStepsService` (./transfer-steps.ts: the workflow
 * steps, the clearing expiry and the reconciler).
 */
export function transferService(core: Core, overrides: TransferOverrides = {}): TransferService {
  return createTransferService(...transferDeps(core, overrides));
}

/** The transfers group's operations (the transfers function, the MCP tools): the same service without the workflow steps. */
export function transferClientService(core: Core, overrides: TransferOverrides = {}): TransferClientService {
  return createTransferClientService(...transferDeps(core, overrides));
}
