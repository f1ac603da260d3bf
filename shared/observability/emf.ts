import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { ENV } from '../config/env-names.js';
import { METRICS_NAMESPACE, METRICS_SERVICE } from './metric-names.js';
import { takeMetrics, type RecordedMetric } from './metrics.js';

/**
 * Writes the recorded metrics (./metrics.ts) as CloudWatch embedded metric format lines on stdout
 * with Powertools' Metrics: no API call, CloudWatch reads them from the function's log. Namespace
 * `Allowance`, dimensions `service` (always `allowance`) and `stage` on every metric, plus the one
 * the metric names: one EMF line per dimension set (EMF dimensions apply to every metric of a
 * line). Called once per invocation by ./invocation.ts, after the answer is known.
 */
let shared: Metrics | undefined;

function metrics(): Metrics {
  shared ??= new Metrics({
    namespace: METRICS_NAMESPACE,
    serviceName: METRICS_SERVICE,
    defaultDimensions: { stage: process.env[ENV.stage] ?? 'local' },
  });
  return shared;
}

const UNITS = { Count: MetricUnit.Count, Milliseconds: MetricUnit.Milliseconds } as const;

/**
 * Values of one metric in one line. Powertools writes a line by itself once a metric holds 100
 * values and clears the line's dimensions as it does, so the values after it would go out under
 * `service` and `stage` alone: a line here is written before any metric reaches 100.
 */
export const MAX_VALUES_PER_LINE = 99;

export function flushMetrics(): void {
  const recorded = takeMetrics();
  if (recorded.length === 0) return;
  const byDimensions = new Map<string, RecordedMetric[]>();
  for (const metric of recorded) {
    const key = JSON.stringify(Object.entries(metric.dimensions).sort());
    const group = byDimensions.get(key);
    if (group) group.push(metric);
    else byDimensions.set(key, [metric]);
  }
  const emf = metrics();
  for (const group of byDimensions.values()) {
    const dimensions = Object.entries(group[0]!.dimensions);
    const inLine = new Map<string, number>();
    const startLine = () => {
      inLine.clear();
      for (const [name, value] of dimensions) if (value) emf.addDimension(name, value);
    };
    startLine();
    for (const metric of group) {
      const count = inLine.get(metric.name) ?? 0;
      if (count === MAX_VALUES_PER_LINE) {
        emf.publishStoredMetrics();
        startLine();
      }
      emf.addMetric(metric.name, UNITS[metric.unit], metric.value);
      inLine.set(metric.name, (inLine.get(metric.name) ?? 0) + 1);
    }
    emf.publishStoredMetrics();
  }
}
