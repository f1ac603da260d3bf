import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What one invocation (an HTTP request, a worker's record, a workflow step) is about: every log
 * line written inside it carries `requestId` and `correlationId`, and the metrics it records take
 * `operation` from it. Held in an AsyncLocalStorage, so concurrent requests of the local run (one
 * process serving every function) never see each other's scope.
 */
export interface InvocationScope {
  /** The request's id (API Gateway's request id at the edges; the Lambda request id in workers). */
  readonly requestId: string;
  /**
   * The request id of the request that caused this work: the request itself at an edge; carried
   * on by journal records and outbox items (attribute `correlationId`), events, webhook deliveries
   * and workflow executions (docs/decisions-observability.md).
   */
  correlationId?: string | undefined;
  /** The operation (HTTP edge: the operation id) or worker name: the `operation` of ConsumedWriteUnits. */
  operation?: string | undefined;
  /** Who called (an edge learns it while authenticating): the edge line's `principalKind`. */
  principalKind?: string | undefined;
  /** The caller's organization (never a key or a secret): the edge line's `organizationId`. */
  organizationId?: string | null | undefined;
  /**
   * The Lambda context's fields on every line, named as Powertools names them (`cold_start`,
   * `function_name`, `function_request_id`...): kept here rather than in the Logger, whose context
   * is process-wide, so the local run's concurrent invocations of different functions keep theirs.
   */
  readonly lambda?: Readonly<Record<string, string | number | boolean>>;
}

const storage = new AsyncLocalStorage<InvocationScope>();

/** Runs `work` in `scope` (nested: an inner scope replaces the outer one for its duration). */
export function withScope<T>(scope: InvocationScope, work: () => T): T {
  return storage.run(scope, work);
}

/** The current invocation's scope, if any (none outside an invocation: tools, tests). */
export function currentScope(): InvocationScope | undefined {
  return storage.getStore();
}

/** The correlation id to pass on (to an event, a delivery, an execution), if any. */
export function currentCorrelationId(): string | undefined {
  return storage.getStore()?.correlationId;
}

/** What the current invocation learned about itself (the caller, the operation). */
export function noteScope(facts: Partial<Pick<InvocationScope, 'operation' | 'principalKind' | 'organizationId'>>) {
  const scope = storage.getStore();
  if (scope) Object.assign(scope, facts);
}

/** Runs `work` with the correlation id of what it handles (a queue message, a delivery), inside the current scope. */
export function withCorrelation<T>(correlationId: string | undefined, work: () => T): T {
  const scope = storage.getStore();
  if (!correlationId) return work();
  return storage.run({ ...(scope ?? { requestId: correlationId }), correlationId }, work);
}
