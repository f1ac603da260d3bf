import * as z from 'zod/mini';
import type { TransferStepInput } from '../domain/transfers/ports.js';
import { lazy } from '../domain/validation.js';
import { EXECUTION_NAME, stepInputOf } from './step-input.js';

/**
 * A Task input of the transfer workflow (lib/workflows/transfer-workflow.ts builds it from the
 * execution's `{transferId}`), checked where it enters the function: a malformed input is a bug
 * of the definition, thrown (the Task fails, is retried, then the execution fails and alarms).
 */
export const transferStepInputSchema = /* @__PURE__ */ lazy(() =>
  z.object({
    step: z.enum(['submit', 'settle']),
    transferId: z.string().check(z.regex(EXECUTION_NAME)),
  }),
);

/** The statuses a step answers once the transfer has ended (the state table's end states): the workflow definition ends on them. */
export { TRANSFER_END_STATUSES } from '../domain/transfers/transfer-states.js';

// The schema and the port's type are one shape (a change to either fails to compile here).
type Parsed = z.infer<typeof transferStepInputSchema>;
const sameShape: [Parsed, TransferStepInput] extends [TransferStepInput, Parsed] ? true : never = true;
void sameShape;

export const transferStepInputOf = (event: unknown): TransferStepInput =>
  stepInputOf(transferStepInputSchema, event, 'transfer');
