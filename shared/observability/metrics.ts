import type { MetricName } from './metric-names.js';
import { currentScope } from './scope.js';

/**
 * Recording a metric (the sources call these: payments, the commit path, webhook delivery, card
 * authorization, workflow steps): an append to an in-memory list, nothing else. The list is written
 * once per invocation, as CloudWatch embedded metric format lines (./emf.ts `flushMetrics`, called
 * by the edges' and workers' wrappers: ./invocation.ts). Dimensions are the closed sets of
 * ./metric-names.ts: never an id.
 */
export interface MetricDimensions {
  code?: string;
  operation?: string;
  outcome?: string;
  decision?: string;
  workflow?: string;
}

export type MetricUnitName = 'Count' | 'Milliseconds';

export interface RecordedMetric {
  name: MetricName;
  unit: MetricUnitName;
  value: number;
  dimensions: MetricDimensions;
}

const pending: RecordedMetric[] = [];
/**
 * Outside an invocation (tools such as `npm run ledger:check`, benches, tests) nothing flushes: the
 * list keeps the latest this many, so it never grows without bound.
 */
export const MAX_PENDING_METRICS = 5_000;

function record(metric: RecordedMetric): void {
  if (pending.length >= MAX_PENDING_METRICS) pending.splice(0, pending.length - MAX_PENDING_METRICS + 1);
  pending.push(metric);
}

/** A count (default 1) of `name`, with its dimension. */
export function countMetric(name: MetricName, dimensions: MetricDimensions = {}, value = 1): void {
  record({ name, unit: 'Count', value, dimensions });
}

/** A duration in milliseconds of `name`. */
export function latencyMetric(name: MetricName, milliseconds: number, dimensions: MetricDimensions = {}): void {
  record({ name, unit: 'Milliseconds', value: Math.max(0, Math.round(milliseconds)), dimensions });
}

/** The current invocation's operation (the operation id at the HTTP edge, the worker's name), for `operation`. */
export function currentOperation(): string {
  return currentScope()?.operation ?? 'unknown';
}

/** Takes every recorded metric out of the list (the flush; tests). */
export function takeMetrics(): RecordedMetric[] {
  return pending.splice(0, pending.length);
}
