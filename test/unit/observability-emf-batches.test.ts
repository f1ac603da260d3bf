import { beforeEach, describe, expect, it } from 'vitest';
import { flushMetrics } from '../../shared/observability/emf.js';
import { METRIC } from '../../shared/observability/metric-names.js';
import { countMetric, latencyMetric, takeMetrics } from '../../shared/observability/metrics.js';
import { captureStreamsPerTest } from '../fixtures/stream-capture.js';

/**
 * Review of issue 26: one invocation may record many values of one metric with one dimension set
 * (a batch of 100 payments: a ConsumedWriteUnits per transaction, a PaymentsRefused per refusal).
 * Powertools' Metrics writes a line by itself once a metric holds 100 values, and that write
 * clears the dimensions added for the line: every value must still be written with its own
 * dimension, never under `service` and `stage` alone (a series no chart or alarm reads).
 */
delete process.env.POWERTOOLS_METRICS_DISABLED;
process.env.STAGE = 'dev';

const streams = captureStreamsPerTest();
beforeEach(() => {
  takeMetrics();
});

interface Emf {
  _aws: { CloudWatchMetrics: { Dimensions: string[][]; Metrics: { Name: string }[] }[] };
  [key: string]: unknown;
}
const emfLines = (): Emf[] => streams.emfLines<Emf>();

/** Every value written for `name`, with the dimension set of its line. */
function valuesOf(name: string) {
  return emfLines().flatMap((line) => {
    const directive = line._aws.CloudWatchMetrics[0]!;
    if (!directive.Metrics.some((metric) => metric.Name === name)) return [];
    const raw = line[name];
    const values = Array.isArray(raw) ? (raw as number[]) : [raw as number];
    const dimensions = Object.fromEntries(directive.Dimensions[0]!.map((d) => [d, line[d]]));
    return values.map((value) => ({ value, dimensions }));
  });
}

describe('EMF flush of many values of one metric', () => {
  it('writes all 250 values of a dimensioned count with their dimension', () => {
    for (let i = 0; i < 250; i++) countMetric(METRIC.consumedWriteUnits, { operation: 'createPaymentBatch' }, i + 1);
    flushMetrics();
    const written = valuesOf(METRIC.consumedWriteUnits);
    expect(written).toHaveLength(250);
    for (const { dimensions } of written) {
      expect(dimensions).toEqual({ service: 'allowance', stage: 'dev', operation: 'createPaymentBatch' });
    }
    // Nothing lost: the sum is the sum recorded.
    expect(written.reduce((sum, { value }) => sum + value, 0)).toBe((250 * 251) / 2);
  });

  it('keeps each group its own dimension when a group fills a line and others follow', () => {
    for (let i = 0; i < 120; i++) countMetric(METRIC.paymentsRefused, { code: 'POLICY_DENIED' });
    countMetric(METRIC.paymentsRefused, { code: 'INSUFFICIENT_FUNDS' });
    for (let i = 0; i < 130; i++) latencyMetric(METRIC.webhookDeliveryLatency, i);
    flushMetrics();
    const refused = valuesOf(METRIC.paymentsRefused);
    expect(refused.filter(({ dimensions }) => dimensions.code === 'POLICY_DENIED')).toHaveLength(120);
    expect(refused.filter(({ dimensions }) => dimensions.code === 'INSUFFICIENT_FUNDS')).toHaveLength(1);
    expect(refused).toHaveLength(121);
    const latency = valuesOf(METRIC.webhookDeliveryLatency);
    expect(latency).toHaveLength(130);
    for (const { dimensions } of latency) expect(dimensions).toEqual({ service: 'allowance', stage: 'dev' });
  });

  it('writes no stray warning line when a group holds exactly 100 values', () => {
    for (let i = 0; i < 100; i++) countMetric(METRIC.webhookDeliveries, { outcome: 'delivered' });
    flushMetrics();
    expect(valuesOf(METRIC.webhookDeliveries)).toHaveLength(100);
    expect(streams.text()).not.toMatch(/No application metrics to publish/);
  });
});
