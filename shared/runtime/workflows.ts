import { SFNClient } from '@aws-sdk/client-sfn';
import type { TransferWorkflows } from '../domain/transfers/ports.js';
import type { DisputeWorkflows } from '../domain/disputes/ports.js';
import { localDisputeWorkflows, localTransferWorkflows } from '../workflows/local-workflows.js';
import { stepFunctionsDisputeWorkflows, stepFunctionsTransferWorkflows } from '../workflows/step-functions.js';
import { traced } from '../observability/tracer.js';
import type { Core } from './core.js';

/**
 * A workflow's start adapter: Step Functions in AWS (its state machine's ARN set, with the
 * StartExecution grant, by ServiceFunction.bindWorkflowStart), else the local run's in-process
 * runner of the same definition (bin/local/workflows.ts).
 */
function startAdapter<T>(
  core: Core,
  stateMachineArn: string | undefined,
  inAws: (client: SFNClient, stateMachineArn: string) => T,
  local: () => T,
): T {
  return stateMachineArn ? inAws(traced(new SFNClient({ region: core.config.region })), stateMachineArn) : local();
}

/** The transfer workflow (TRANSFER_STATE_MACHINE_ARN). */
export const transferWorkflows = (core: Core): TransferWorkflows =>
  startAdapter(core, core.config.transferStateMachineArn, stepFunctionsTransferWorkflows, localTransferWorkflows);

/** The dispute deadline workflow (DISPUTE_STATE_MACHINE_ARN). */
export const disputeWorkflows = (core: Core): DisputeWorkflows =>
  startAdapter(core, core.config.disputeStateMachineArn, stepFunctionsDisputeWorkflows, localDisputeWorkflows);
