import { Logger } from '@aws-lambda-powertools/logger';
import type { Context } from 'aws-lambda';
import { redactingReplacer } from './redact.js';
import { currentScope } from './scope.js';

/**
 * The service's logger: Powertools for AWS Lambda's Logger (JSON lines on stdout: `level`,
 * `message`, `timestamp`, `service`, and after `beginInvocation` the Lambda context's
 * `cold_start`, `function_request_id`...), its service name and level read by Powertools from
 * POWERTOOLS_SERVICE_NAME and POWERTOOLS_LOG_LEVEL (set per function by CDK, and by the local run),
 * every line passed through the redaction guard (./redact.ts). Each line also carries the current
 * invocation's `requestId` and `correlationId` (./scope.ts). One per process, made on first use.
 */
let shared: Logger | undefined;

export function powertoolsLogger(): Logger {
  shared ??= new Logger({ jsonReplacerFn: redactingReplacer as never });
  return shared;
}

type Attributes = Record<string, unknown>;

function withScope(attributes: Attributes | undefined): Attributes {
  const scope = currentScope();
  if (!scope) return attributes ?? {};
  return {
    ...scope.lambda,
    requestId: scope.requestId,
    ...(scope.correlationId ? { correlationId: scope.correlationId } : {}),
    ...attributes,
  };
}

/** `error` as a log attribute (Powertools formats an Error: name, message, stack; redacted). */
function errorAttributes(error: unknown): Attributes {
  if (error === undefined) return {};
  return { error: error instanceof Error ? error : { message: String(error) } };
}

/**
 * What the code logs through (never console.error/warn): `log.info(message, attributes)`,
 * `log.error(message, error?, attributes?)`. Its `error` also fits where a `Pick<Console, 'error'>`
 * is injected (services' `log`): extra arguments become the line's `error` and `details`.
 */
export const log = {
  debug(message: string, attributes?: Attributes): void {
    powertoolsLogger().debug(message, withScope(attributes));
  },
  info(message: string, attributes?: Attributes): void {
    powertoolsLogger().info(message, withScope(attributes));
  },
  warn(message: string, error?: unknown, attributes?: Attributes): void {
    powertoolsLogger().warn(message, withScope({ ...errorAttributes(error), ...attributes }));
  },
  error(message: string, error?: unknown, ...details: unknown[]): void {
    const extra = details.length === 1 && isAttributes(details[0]) ? details[0] : details.length ? { details } : {};
    powertoolsLogger().error(message, withScope({ ...errorAttributes(error), ...extra }));
  },
};

export type Log = typeof log;

function isAttributes(value: unknown): value is Attributes {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Error);
}

/**
 * The Lambda context's fields for the invocation's scope (./scope.ts `lambda`), as Powertools'
 * `addContext` would add them; `coldStart`: the first invocation of this handler in the process.
 */
export function lambdaFields(
  context: Partial<Context> | undefined,
  coldStart: boolean,
): Record<string, string | number | boolean> {
  if (!context?.awsRequestId) return { cold_start: coldStart };
  return {
    cold_start: coldStart,
    ...(context.functionName ? { function_name: context.functionName } : {}),
    ...(context.memoryLimitInMB ? { function_memory_size: Number(context.memoryLimitInMB) } : {}),
    ...(context.invokedFunctionArn ? { function_arn: context.invokedFunctionArn } : {}),
    function_request_id: context.awsRequestId,
  };
}
