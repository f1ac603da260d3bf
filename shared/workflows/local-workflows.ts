import type { TransferWorkflows } from '../domain/transfers/ports.js';
import type { DisputeWorkflows } from '../domain/disputes/ports.js';
import { DISPUTE_WORKFLOW_NAME, TRANSFER_WORKFLOW_NAME, type WorkflowName } from '../workers.js';
import { executionNameOf, withCorrelationInput } from './step-input.js';

/**
 * The in-process stand-in of Step Functions for the local run (`npm start`, the e2e server):
 * bin/local/workflows.ts registers a runner per workflow (aws-local-stepfunctions executing the
 * definition of lib/workflows/ with its Task states calling the workers' handler modules); the
 * adapters below start executions here when no state machine is configured. Kept apart from the
 * runner so Lambda bundles never carry aws-local-stepfunctions (a devDependency). Process-wide, as
 * the handlers' modules are. Nothing registered (unit tests): starts are counted and dropped.
 */
export interface LocalWorkflowRunner {
  /**
   * Starts an execution named `name` with `input`, unless one of that name was started already
   * (as Step Functions: one execution per name). Does not wait for it; its failures are logged.
   */
  start(name: string, input: { readonly [key: string]: string }): void;
}

interface Registry {
  runners: Map<WorkflowName, LocalWorkflowRunner>;
  dropped: number;
}

const KEY = Symbol.for('allowance.local-workflows');
const registry: Registry = ((globalThis as Record<symbol, unknown>)[KEY] as Registry | undefined) ?? {
  runners: new Map(),
  dropped: 0,
};
(globalThis as Record<symbol, unknown>)[KEY] = registry;

export const localWorkflows = {
  register(workflow: WorkflowName, runner: LocalWorkflowRunner): () => void {
    registry.runners.set(workflow, runner);
    return () => {
      if (registry.runners.get(workflow) === runner) registry.runners.delete(workflow);
    };
  },
  start(workflow: WorkflowName, name: string, input: { readonly [key: string]: string }): void {
    const runner = registry.runners.get(workflow);
    if (runner) runner.start(name, withCorrelationInput(input));
    else registry.dropped += 1;
  },
  /** Starts dropped because no runner was registered. */
  get dropped() {
    return registry.dropped;
  },
};

/** The transfer workflow in the local run: the same execution name and input as in AWS. */
export function localTransferWorkflows(): TransferWorkflows {
  return {
    async start(transfer) {
      localWorkflows.start(TRANSFER_WORKFLOW_NAME, executionNameOf(transfer.id), { transferId: transfer.id });
    },
  };
}

/** The dispute deadline workflow in the local run: the same execution name and input as in AWS. */
export function localDisputeWorkflows(): DisputeWorkflows {
  return {
    async start(dispute) {
      localWorkflows.start(DISPUTE_WORKFLOW_NAME, executionNameOf(dispute.id), {
        disputeId: dispute.id,
        respondBy: dispute.respondBy,
      });
    },
  };
}
