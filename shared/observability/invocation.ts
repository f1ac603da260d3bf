import type { Context } from 'aws-lambda';
import { flushMetrics } from './emf.js';
import { lambdaFields, log } from './log.js';
import { METRIC } from './metric-names.js';
import { countMetric } from './metrics.js';
import { currentScope, withScope, type InvocationScope } from './scope.js';

/** What an edge's answer tells the edge line. */
interface Answer {
  statusCode: number;
}

/** The request facts an edge event carries (API Gateway v2 events, function URL events). */
interface EdgeEvent {
  routeKey?: string;
  rawPath?: string;
  requestContext?: { requestId?: string; http?: { method?: string } };
}

/**
 * An edge (HTTP API group, MCP, dashboard, hosted pages, card network) with its observability: the
 * invocation's scope (request id, which is also the correlation id of whatever the request causes),
 * the Lambda context on every line, ONE `request` line per request (requestId, route, status,
 * durationMs, principalKind, organizationId, correlationId: the fields docs/runbook.md queries)
 * and the metrics recorded meanwhile, written once. `route` is the route key, never the raw path
 * (a hosted page's path may carry a claim token).
 */
export function observedEdge<E extends EdgeEvent, R extends Answer>(
  handler: (event: E, context: Context) => Promise<R>,
  routeOf: (event: E) => string = (event) => event.routeKey ?? 'unknown',
): (event: E, context?: Context) => Promise<R> {
  let coldStart = true;
  return async (event, context) => {
    const started = performance.now();
    const requestId = event.requestContext?.requestId ?? context?.awsRequestId ?? 'unknown';
    const scope: InvocationScope = { requestId, correlationId: requestId, lambda: lambdaFields(context, coldStart) };
    coldStart = false;
    return withScope(scope, async () => {
      let status = 500;
      try {
        const answer = await handler(event, context as Context);
        status = answer.statusCode;
        return answer;
      } catch (error) {
        // The edges answer their own failures; one that escapes still gets its line.
        log.error('unexpected error', error);
        throw error;
      } finally {
        log.info('request', {
          route: routeOf(event),
          status,
          durationMs: Math.round(performance.now() - started),
          principalKind: scope.principalKind ?? 'NONE',
          organizationId: scope.organizationId ?? null,
        });
        flushMetrics();
      }
    });
  };
}

/**
 * A worker's invocation (queue, stream, schedule, workflow task) with its observability: its scope
 * (the Lambda request id; the worker's name as `operation`), the Lambda context on every line, an
 * uncaught failure logged, and the metrics recorded meanwhile written once at the end. The
 * correlation id of each record is set by the worker around that record (scope.ts withCorrelation).
 * `step`: a workflow's Task worker, whose every run counts a WorkflowSteps outcome.
 */
export function observedWorker<A extends unknown[], R>(
  name: string,
  handler: (...args: A) => Promise<R>,
  options: { step?: { workflow: string } } = {},
): (...args: A) => Promise<R> {
  let coldStart = true;
  return async (...args) => {
    const context = args[1] as Partial<Context> | undefined;
    const requestId = context?.awsRequestId ?? currentScope()?.requestId ?? 'local';
    const scope: InvocationScope = { requestId, operation: name, lambda: lambdaFields(context, coldStart) };
    coldStart = false;
    return withScope(scope, async () => {
      let outcome: 'succeeded' | 'failed' = 'failed';
      try {
        const result = await handler(...args);
        outcome = 'succeeded';
        return result;
      } catch (error) {
        log.error(`${name} failed`, error);
        throw error;
      } finally {
        if (options.step) countMetric(METRIC.workflowSteps, { workflow: options.step.workflow, outcome });
        flushMetrics();
      }
    });
  };
}
