import type { TransferStepOutput } from '../../shared/domain/transfers/ports.js';
import { core } from '../../shared/runtime/core.js';
import { transferStepsService } from '../../shared/runtime/services/transfer-steps.js';
import { observedWorker } from '../../shared/observability/invocation.js';
import { TRANSFER_STEPS_WORKER, TRANSFER_WORKFLOW_NAME } from '../../shared/workers.js';
import { transferStepInputOf } from '../../shared/workflows/transfer-step-input.js';

let transfers: ReturnType<typeof transferStepsService> | undefined;

/**
 * Workflow-task worker, declared in shared/workers.ts: the Task states of the transfer workflow
 * (lib/workflows/transfer-workflow.ts; Step Functions in AWS, aws-local-stepfunctions locally)
 * call it with `{step, transferId}`. Each step is idempotent and answers the transfer's status; a
 * thrown error fails the Task, which the workflow retries.
 */
async function runStep(event: unknown): Promise<TransferStepOutput> {
  transfers ??= transferStepsService(core());
  return transfers.runStep(transferStepInputOf(event));
}

export const handler = observedWorker(TRANSFER_STEPS_WORKER, runStep, { step: { workflow: TRANSFER_WORKFLOW_NAME } });
