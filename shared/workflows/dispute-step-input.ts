import * as z from 'zod/mini';
import type { DisputeDeadline, DisputeStepInput, DisputeStepOutput } from '../domain/disputes/ports.js';
import { lazy } from '../domain/validation.js';
import { EXECUTION_NAME, stepInputOf } from './step-input.js';

/**
 * The Task input of the dispute deadline workflow (lib/workflows/dispute-workflow.ts builds it
 * from the execution's `{disputeId, respondBy}`), checked where it enters the function: a malformed
 * input is a bug of the definition, thrown (the Task fails, is retried, then the execution fails
 * and alarms).
 */
export const disputeStepInputSchema = /* @__PURE__ */ lazy(() =>
  z.object({
    step: z.literal('deadline'),
    disputeId: z.string().check(z.regex(EXECUTION_NAME)),
  }),
);

/** The statuses after which the deadline has nothing left to do (the state table's end states). */
export { DISPUTE_END_STATUSES } from '../domain/disputes/dispute-states.js';

// The schema and the port's type are one shape (a change to either fails to compile here).
type Parsed = z.infer<typeof disputeStepInputSchema>;
const sameShape: [Parsed, DisputeStepInput] extends [DisputeStepInput, Parsed] ? true : never = true;
void sameShape;

export const disputeStepInputOf = (event: unknown): DisputeStepInput =>
  stepInputOf(disputeStepInputSchema, event, 'dispute');

/**
 * The dispute-steps worker's work (functions/dispute-steps/handler.ts): the input checked, then the
 * deadline of that dispute applied now (the disputes service's `runDeadline`). Its answer is the
 * Task's result, which the workflow's Choice reads.
 */
export async function runDisputeStep(deadline: DisputeDeadline, event: unknown): Promise<DisputeStepOutput> {
  const { disputeId } = disputeStepInputOf(event);
  return deadline.runDeadline(disputeId);
}
