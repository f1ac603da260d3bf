import { StartExecutionCommand, type SFNClient } from '@aws-sdk/client-sfn';
import type { TransferWorkflows } from '../domain/transfers/ports.js';
import { executionNameOf } from './transfer-step-input.js';

/**
 * The transfer workflow in AWS: one StartExecution per transfer on the state machine of
 * TRANSFER_STATE_MACHINE_ARN, named after the transfer, with `{"transferId"}` as input. Starting
 * it twice is harmless: while the first execution runs, Step Functions answers the same execution
 * (same name, same input); after it closed, ExecutionAlreadyExists, which means it was started.
 * Anything else (throttling, access denied) is thrown to the caller.
 */
export function stepFunctionsTransferWorkflows(
  client: Pick<SFNClient, 'send'>,
  stateMachineArn: string,
): TransferWorkflows {
  return {
    async start(transfer) {
      try {
        await client.send(
          new StartExecutionCommand({
            stateMachineArn,
            name: executionNameOf(transfer.id),
            input: JSON.stringify({ transferId: transfer.id }),
          }),
        );
      } catch (error) {
        if ((error as { name?: unknown } | undefined)?.name === 'ExecutionAlreadyExists') return;
        throw error;
      }
    },
  };
}
