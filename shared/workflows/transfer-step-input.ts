import * as z from 'zod/mini';
import type { TransferStepInput } from '../domain/transfers/ports.js';
import { lazy, safeParse } from '../domain/validation.js';

/** Execution names: 1 to 80 characters, none of whitespace or `<>{}[]?*"#%\^|~`$&,;:/`. */
const EXECUTION_NAME = /^[A-Za-z0-9_.-]{1,80}$/;

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

export function transferStepInputOf(event: unknown): TransferStepInput {
  const parsed = safeParse(transferStepInputSchema, event);
  if (!parsed.success)
    throw new Error(
      `not a transfer step input: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`,
    );
  return parsed.data;
}

/** The transfer workflow's execution name (one execution per transfer: the name is the id). */
export function executionNameOf(transferId: string): string {
  if (!EXECUTION_NAME.test(transferId))
    throw new Error(`transfer id ${JSON.stringify(transferId)} can not name an execution`);
  return transferId;
}
