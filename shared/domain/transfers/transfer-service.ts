import type { ServiceDeps } from '../ports.js';
import type { TransferStore, TransferWorkflows } from './ports.js';
import { createSandboxAdvance } from './sandbox-advance.js';
import { createTransferOperations } from './transfer-operations.js';
import { transferMovers, type TransferStepsOptions } from './transfer-steps-service.js';
import { createTransferWorkflowSteps } from './transfer-workflow-steps.js';

export type { CounterpartyInput, ExternalTransferInput } from './transfer-counterparties.js';
export type { InternalTransferInput } from './transfer-operations.js';
export type { LinkRiderChange, TransferLinkRider } from './transfer-link-rider.js';
export { RECONCILE_BATCH_SIZE } from './transfer-workflow-steps.js';

export interface TransferServiceOptions extends TransferStepsOptions {
  /** Starts the transfer workflow after a deposit or withdrawal commits. */
  workflows?: TransferWorkflows | undefined;
}

/**
 * Transfers (interface-spec 4.5, 3.3; decisions.md sections 2-4): deposits and withdrawals through
 * a rail, driven by the transfer workflow (submit, wait, settle), and internal transfers posted at
 * once. Each state change is one transaction with its movement, its event and (for a client's
 * action) its audit entry, conditioned on the state table, so a step that runs twice, a cancel
 * racing a settlement or a test helper advancing a transfer change it at most once.
 *
 * The one service the rest of the code gets, composed of: the client operations
 * (transfer-operations.ts), the lifecycle transitions (transfer-transitions.ts), the workflow
 * steps and the reconciler (transfer-workflow-steps.ts), the counterparties
 * (transfer-counterparties.ts) and the sandbox test helper (sandbox-advance.ts). The functions that
 * only move transfers along (the workflow's steps, the clearing expiry, the reconciler) build the
 * steps alone (transfer-steps-service.ts), without the client operations and the workflow start.
 */
export function createTransferService(deps: ServiceDeps<TransferStore>, options: TransferServiceOptions) {
  const movers = transferMovers(deps, options);
  const { runStep, releaseClearing, reconcileDue } = createTransferWorkflowSteps(deps, {
    rails: options.rails,
    ...movers,
  });
  return { ...clientOperations(deps, options, movers), runStep, releaseClearing, reconcileDue };
}

/**
 * The client operations and the sandbox test helper alone (what the transfers group's operations
 * call: the transfers function, the MCP tools), over the same transitions, without the workflow
 * steps and the reconciler.
 */
export function createTransferClientService(deps: ServiceDeps<TransferStore>, options: TransferServiceOptions) {
  return clientOperations(deps, options, transferMovers(deps, options));
}

function clientOperations(
  deps: ServiceDeps<TransferStore>,
  options: TransferServiceOptions,
  { counterparties, transitions, log }: ReturnType<typeof transferMovers>,
) {
  const { get, list, deposit, withdraw, internal, cancel } = createTransferOperations(deps, {
    rails: options.rails,
    counterparties,
    transitions,
    workflows: options.workflows,
    log,
  });
  const { advance } = createSandboxAdvance(deps, { transitions, load: get });
  return { deposit, withdraw, internal, get, list, cancel, advance };
}

export type TransferService = ReturnType<typeof createTransferService>;
/** What the transfers group's operations call (every TransferService is one). */
export type TransferClientService = ReturnType<typeof createTransferClientService>;
