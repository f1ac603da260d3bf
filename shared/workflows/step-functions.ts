import { StartExecutionCommand, type SFNClient } from '@aws-sdk/client-sfn';
import type { DisputeWorkflows } from '../domain/disputes/ports.js';
import type { TransferWorkflows } from '../domain/transfers/ports.js';
import { executionNameOf, withCorrelationInput } from './step-input.js';

/**
 * Starts one execution of `stateMachineArn` named after the subject's id, with `input`. Starting
 * it twice is harmless: while the first execution runs, Step Functions answers the same execution
 * (same name, same input); after it closed, ExecutionAlreadyExists, which means it was started.
 * Anything else (throttling, access denied) is thrown to the caller.
 */
async function startExecution(
  client: Pick<SFNClient, 'send'>,
  stateMachineArn: string,
  id: string,
  input: { readonly [key: string]: string },
): Promise<void> {
  try {
    await client.send(
      new StartExecutionCommand({
        stateMachineArn,
        name: executionNameOf(id),
        input: JSON.stringify(withCorrelationInput(input)),
      }),
    );
  } catch (error) {
    if ((error as { name?: unknown } | undefined)?.name === 'ExecutionAlreadyExists') return;
    throw error;
  }
}

/** The transfer workflow in AWS (TRANSFER_STATE_MACHINE_ARN): one execution per transfer, input `{"transferId"}`. */
export function stepFunctionsTransferWorkflows(
  client: Pick<SFNClient, 'send'>,
  stateMachineArn: string,
): TransferWorkflows {
  return { start: (transfer) => startExecution(client, stateMachineArn, transfer.id, { transferId: transfer.id }) };
}

/**
 * The dispute deadline workflow in AWS (DISPUTE_STATE_MACHINE_ARN): one execution per dispute,
 * input `{"disputeId", "respondBy"}` (the workflow's first Wait reads `respondBy`).
 */
export function stepFunctionsDisputeWorkflows(
  client: Pick<SFNClient, 'send'>,
  stateMachineArn: string,
): DisputeWorkflows {
  return {
    start: (dispute) =>
      startExecution(client, stateMachineArn, dispute.id, { disputeId: dispute.id, respondBy: dispute.respondBy }),
  };
}
