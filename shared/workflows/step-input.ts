import type * as z from 'zod/mini';
import { currentCorrelationId } from '../observability/scope.js';
import { safeParse } from '../domain/validation.js';

/**
 * What every workflow's Task input and execution name share (shared/workflows/*-step-input.ts):
 * the execution name is the subject's id, and a Task input is checked where it enters the function.
 */

/** Execution names: 1 to 80 characters, none of whitespace or `<>{}[]?*"#%\^|~`$&,;:/`. */
export const EXECUTION_NAME = /^[A-Za-z0-9_.-]{1,80}$/;

/** A workflow's execution name (one execution per subject: the name is its id). */
export function executionNameOf(id: string): string {
  if (!EXECUTION_NAME.test(id)) throw new Error(`id ${JSON.stringify(id)} can not name an execution`);
  return id;
}

/**
 * An execution's input with the correlation id of the request that started it (its request id:
 * shared/observability/scope.ts), when there is one: visible in the execution's input (console,
 * DescribeExecution). The Task states pass on only the fields they name, so no step sees it.
 */
export function withCorrelationInput(input: { readonly [key: string]: string }): { readonly [key: string]: string } {
  const correlationId = currentCorrelationId();
  return correlationId ? { ...input, correlationId } : input;
}

/**
 * `event` parsed by a step input schema; a malformed input is a bug of the definition, thrown
 * (`not a <what> step input: ...`): the Task fails, is retried, then the execution fails and alarms.
 */
export function stepInputOf<T>(schema: z.ZodMiniType<T>, event: unknown, what: string): T {
  const parsed = safeParse(schema, event);
  if (!parsed.success)
    throw new Error(
      `not a ${what} step input: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`,
    );
  return parsed.data;
}
