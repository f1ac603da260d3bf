import type { DisputeDeadline, DisputeStepOutput } from '../../shared/domain/disputes/ports.js';
import { core } from '../../shared/runtime/core.js';
import { runDisputeStep } from '../../shared/workflows/dispute-step-input.js';

let deadline: DisputeDeadline | undefined;

/**
 * Workflow-task worker, declared in shared/workers.ts: the Deadline Task of the dispute workflow
 * (lib/workflows/dispute-workflow.ts; Step Functions in AWS, aws-local-stepfunctions locally)
 * calls it with `{step: 'deadline', disputeId}`. The step is idempotent and answers the dispute's
 * status; a thrown error fails the Task, which the workflow retries.
 */
export async function handler(event: unknown): Promise<DisputeStepOutput> {
  deadline ??= notWiredYet(core());
  return runDisputeStep(deadline, event);
}

// Until the disputes service (shared/runtime/services/disputes.ts, issue 23) lands on this branch.
function notWiredYet(_core: ReturnType<typeof core>): DisputeDeadline {
  return { runDeadline: () => Promise.reject(new Error('dispute-steps: the disputes service is not wired yet')) };
}
