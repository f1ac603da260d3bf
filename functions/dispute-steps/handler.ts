import type { DisputeDeadline, DisputeStepOutput } from '../../shared/domain/disputes/ports.js';
import { core } from '../../shared/runtime/core.js';
import { disputeService } from '../../shared/runtime/services/disputes.js';
import { observedWorker } from '../../shared/observability/invocation.js';
import { DISPUTE_STEPS_WORKER, DISPUTE_WORKFLOW_NAME } from '../../shared/workers.js';
import { runDisputeStep } from '../../shared/workflows/dispute-step-input.js';

let deadline: DisputeDeadline | undefined;

/**
 * Workflow-task worker, declared in shared/workers.ts: the Deadline Task of the dispute workflow
 * (lib/workflows/dispute-workflow.ts; Step Functions in AWS, aws-local-stepfunctions locally)
 * calls it with `{step: 'deadline', disputeId}`. The step is idempotent and answers the dispute's
 * status; a thrown error fails the Task, which the workflow retries.
 */
export const handler = observedWorker(
  DISPUTE_STEPS_WORKER,
  async (event: unknown): Promise<DisputeStepOutput> => {
    deadline ??= disputeService(core());
    return runDisputeStep(deadline, event);
  },
  { step: { workflow: DISPUTE_WORKFLOW_NAME } },
);
