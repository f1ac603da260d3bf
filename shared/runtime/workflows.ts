import { SFNClient } from '@aws-sdk/client-sfn';
import type { TransferWorkflows } from '../domain/transfers/ports.js';
import type { DisputeWorkflows } from '../domain/disputes/ports.js';
import { localDisputeWorkflows, localTransferWorkflows } from '../workflows/local-workflows.js';
import { stepFunctionsTransferWorkflows } from '../workflows/step-functions.js';
import type { Core } from './core.js';

/**
 * The transfer workflow: Step Functions in AWS (TRANSFER_STATE_MACHINE_ARN, set with the
 * StartExecution grant by ServiceFunction.bindTransferWorkflow), else the local run's in-process
 * runner of the same definition (bin/local/workflows.ts).
 */
export function transferWorkflows(core: Core): TransferWorkflows {
  const { config } = core;
  return config.transferStateMachineArn
    ? stepFunctionsTransferWorkflows(new SFNClient({ region: config.region }), config.transferStateMachineArn)
    : localTransferWorkflows();
}

/**
 * The dispute deadline workflow. Locally (and until the workflows stack deploys it: issue 23, in
 * progress) the local run's in-process runner; the Step Functions adapter takes over when
 * DISPUTE_STATE_MACHINE_ARN is set.
 */
export function disputeWorkflows(_core: Core): DisputeWorkflows {
  return localDisputeWorkflows();
}
