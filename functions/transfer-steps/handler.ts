import type { TransferStepOutput } from '../../shared/domain/transfers/ports.js';
import { core } from '../../shared/runtime/core.js';
import { transferService } from '../../shared/runtime/services/transfers.js';
import { transferStepInputOf } from '../../shared/workflows/transfer-step-input.js';

let transfers: ReturnType<typeof transferService> | undefined;

/**
 * Workflow-task worker, declared in shared/workers.ts: the Task states of the transfer workflow
 * (lib/workflows/transfer-workflow.ts; Step Functions in AWS, aws-local-stepfunctions locally)
 * call it with `{step, transferId}`. Each step is idempotent and answers the transfer's status; a
 * thrown error fails the Task, which the workflow retries.
 */
export async function handler(event: unknown): Promise<TransferStepOutput> {
  transfers ??= transferService(core());
  return transfers.runStep(transferStepInputOf(event));
}
