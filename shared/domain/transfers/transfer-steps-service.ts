import type { ExpiryScheduler } from '../expiries/ports.js';
import type { ServiceDeps } from '../ports.js';
import type { Sealer } from '../sealing.js';
import { domainLog } from '../telemetry.js';
import type { Environment } from '../tenancy.js';
import type { TransferRail, TransferStore } from './ports.js';
import { createTransferCounterparties } from './transfer-counterparties.js';
import type { TransferLinkRider } from './transfer-link-rider.js';
import { createTransferTransitions } from './transfer-transitions.js';
import { clearingScheduler, createTransferWorkflowSteps } from './transfer-workflow-steps.js';

export { RECONCILE_BATCH_SIZE } from './transfer-workflow-steps.js';

export interface TransferStepsOptions {
  /** The settlement rail of each environment (the sandbox rail; production's provider, or a rail that refuses). */
  rails: Record<Environment, TransferRail>;
  sealer: Sealer;
  /** Schedules the end of an ACH deposit's clearing. */
  expiries?: ExpiryScheduler | undefined;
  log?: Pick<Console, 'error'>;
  /** Ends a payment link's claim transfer with its link (shared/domain/payment-links/payment-link-transfers.ts). */
  linkRider?: TransferLinkRider | undefined;
}

/** What both the client operations and the workflow steps move transfers with. */
export function transferMovers(deps: ServiceDeps<TransferStore>, options: TransferStepsOptions) {
  const counterparties = createTransferCounterparties(deps.store, options.sealer);
  const scheduleClearing = clearingScheduler(options.expiries);
  const transitions = createTransferTransitions(deps, scheduleClearing, { linkRider: options.linkRider });
  return { counterparties, scheduleClearing, transitions, log: options.log ?? domainLog };
}

/**
 * The work that moves a transfer after its creation, alone (the functions that run it: the
 * transfer workflow's steps, the clearing expiry, the reconciler): the workflow steps, the end of
 * an ACH deposit's clearing and the reconciler over the same transitions as the whole service
 * (transfer-service.ts), without the client operations nor the workflow start they need.
 */
export function createTransferStepsService(deps: ServiceDeps<TransferStore>, options: TransferStepsOptions) {
  const { counterparties, scheduleClearing, transitions, log } = transferMovers(deps, options);
  return createTransferWorkflowSteps(deps, {
    rails: options.rails,
    counterparties,
    transitions,
    scheduleClearing,
    log,
  });
}

export type TransferStepsService = ReturnType<typeof createTransferStepsService>;
