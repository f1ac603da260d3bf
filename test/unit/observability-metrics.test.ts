import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { beforeEach, describe, expect, it } from 'vitest';
import { observabilityTelemetry } from '../../shared/observability/domain-telemetry.js';
import { flushMetrics } from '../../shared/observability/emf.js';
import { observedEdge, observedWorker } from '../../shared/observability/invocation.js';
import { METRIC, METRICS_NAMESPACE, METRICS_SERVICE } from '../../shared/observability/metric-names.js';
import { countMetric, MAX_PENDING_METRICS, takeMetrics } from '../../shared/observability/metrics.js';
import { noteScope } from '../../shared/observability/scope.js';
import { CONFLICT_RETRY_LIMIT, transactWrite } from '../../shared/persistence/transact.js';
import { captureStreamsPerTest } from '../fixtures/stream-capture.js';

/**
 * Issue 26: the metrics are CloudWatch embedded metric format lines (no API call), namespace
 * `Allowance`, dimensions exactly `service` (always `allowance`), `stage` and at most the one
 * metric-names.ts names, with values from a closed set (never an id), written once per invocation.
 */
delete process.env.POWERTOOLS_METRICS_DISABLED;
process.env.STAGE = 'dev';

const streams = captureStreamsPerTest();
beforeEach(() => {
  takeMetrics();
});

interface Emf {
  _aws: {
    Timestamp: number;
    CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string; Unit: string }[] }[];
  };
  [key: string]: unknown;
}
const emfLines = (): Emf[] => streams.emfLines<Emf>();

/** name -> { dimension set, values } over every EMF line. */
function metricsOf(lines: Emf[]) {
  return lines.flatMap((line) =>
    line._aws.CloudWatchMetrics[0]!.Metrics.map((metric) => ({
      name: metric.Name,
      unit: metric.Unit,
      dimensions: line._aws.CloudWatchMetrics[0]!.Dimensions,
      values: Object.fromEntries(line._aws.CloudWatchMetrics[0]!.Dimensions[0]!.map((d) => [d, line[d]])),
      value: line[metric.Name],
    })),
  );
}

/** An id of ours (prefix + 24 base62) or a UUID. */
const ID = /_[A-Za-z0-9]{20,}|[0-9a-f]{8}-[0-9a-f]{4}-/;

const lambdaContext = { awsRequestId: 'lambda-req-9', functionName: 'f' } as Context;

describe('metrics: EMF lines with the contract dimensions', () => {
  it('writes each metric of metric-names.ts with service, stage and its one dimension, nothing else', () => {
    observabilityTelemetry.payment({ kind: 'posted' });
    observabilityTelemetry.payment({ kind: 'queued' });
    observabilityTelemetry.payment({ kind: 'refused', code: 'INSUFFICIENT_FUNDS' });
    observabilityTelemetry.payment({ kind: 'refused', code: 'INSUFFICIENT_FUNDS' });
    observabilityTelemetry.webhookAttempt('delivered', 120);
    observabilityTelemetry.webhookAttempt('dead_lettered', 10_000);
    observabilityTelemetry.cardDecision('approved', 42.4);
    observabilityTelemetry.cardDecision('declined', 17);
    countMetric(METRIC.workflowSteps, { workflow: 'transfer', outcome: 'succeeded' });
    flushMetrics();

    const lines = emfLines();
    for (const line of lines) {
      expect(line._aws.CloudWatchMetrics).toHaveLength(1);
      expect(line._aws.CloudWatchMetrics[0]!.Namespace).toBe(METRICS_NAMESPACE);
      expect(line.service).toBe(METRICS_SERVICE);
      expect(line.stage).toBe('dev');
      expect(typeof line._aws.Timestamp).toBe('number');
    }
    const metrics = metricsOf(lines);
    const byName = (name: string) => metrics.filter((metric) => metric.name === name);
    expect(byName(METRIC.paymentsPosted)).toEqual([
      {
        name: 'PaymentsPosted',
        unit: 'Count',
        dimensions: [['service', 'stage']],
        values: { service: 'allowance', stage: 'dev' },
        value: 1,
      },
    ]);
    expect(byName(METRIC.paymentsQueued)[0]!.value).toBe(1);
    expect(byName(METRIC.paymentsRefused)).toEqual([
      {
        name: 'PaymentsRefused',
        unit: 'Count',
        dimensions: [['service', 'stage', 'code']],
        values: { service: 'allowance', stage: 'dev', code: 'INSUFFICIENT_FUNDS' },
        value: [1, 1],
      },
    ]);
    expect(byName(METRIC.webhookDeliveries).map((m) => [m.dimensions, m.values.outcome])).toEqual([
      [[['service', 'stage', 'outcome']], 'delivered'],
      [[['service', 'stage', 'outcome']], 'dead_lettered'],
    ]);
    expect(byName(METRIC.webhookDeliveryLatency)).toEqual([
      expect.objectContaining({ unit: 'Milliseconds', dimensions: [['service', 'stage']], value: [120, 10_000] }),
    ]);
    expect(
      byName(METRIC.cardAuthorizations)
        .map((m) => m.values.decision)
        .sort(),
    ).toEqual(['approved', 'declined']);
    expect(byName(METRIC.cardAuthorizationLatency)[0]).toMatchObject({ unit: 'Milliseconds', value: [42, 17] });
    expect(byName(METRIC.workflowSteps)[0]).toMatchObject({
      dimensions: [['service', 'stage', 'workflow', 'outcome']],
      values: { workflow: 'transfer', outcome: 'succeeded' },
    });
    // Only names of the one list; no dimension value is an id.
    const names = new Set<string>(Object.values(METRIC));
    for (const metric of metrics) {
      expect(names.has(metric.name)).toBe(true);
      for (const value of Object.values(metric.values)) expect(String(value)).not.toMatch(ID);
    }
  });

  it('counts what the commit path sees: consumed write units per operation, each conflict, exhausted retries', async () => {
    const canceled = () =>
      new TransactionCanceledException({
        message: 'x',
        $metadata: {},
        CancellationReasons: [{ Code: 'TransactionConflict' }],
      });
    let conflicts = 1;
    const client = {
      send: async () => {
        if (conflicts-- > 0) throw canceled();
        return { ConsumedCapacity: [{ CapacityUnits: 8 }] };
      },
    } as unknown as DynamoDBDocumentClient;
    const item = { Put: { TableName: 't', Item: { PK: 'a', SK: 'b' } } };
    const edge = observedEdge(async (_event: APIGatewayProxyEventV2) => {
      noteScope({ operation: 'createPayment' });
      await transactWrite(client, [{ item }], { sleep: async () => undefined });
      // Before the answer: nothing written yet (one flush per invocation, after it).
      expect(emfLines()).toEqual([]);
      conflicts = CONFLICT_RETRY_LIMIT;
      await transactWrite(client, [{ item }], { sleep: async () => undefined }).catch(() => undefined);
      return { statusCode: 201 };
    });
    await edge(
      { routeKey: 'POST /v1/payments', requestContext: { requestId: 'req-m-1' } } as APIGatewayProxyEventV2,
      lambdaContext,
    );

    const metrics = metricsOf(emfLines());
    expect(metrics.find((m) => m.name === METRIC.consumedWriteUnits)).toMatchObject({
      dimensions: [['service', 'stage', 'operation']],
      values: { operation: 'createPayment' },
      value: 8,
    });
    const conflictsCounted = metrics.find((m) => m.name === METRIC.transactionConflicts)!;
    expect(conflictsCounted.dimensions).toEqual([['service', 'stage']]);
    expect(conflictsCounted.value).toEqual(Array(1 + CONFLICT_RETRY_LIMIT).fill(1));
    expect(metrics.find((m) => m.name === METRIC.retriesExhausted)).toMatchObject({ value: 1 });
    // One flush: a second one finds nothing left.
    streams.clear();
    flushMetrics();
    expect(emfLines()).toEqual([]);
  });

  it("counts a workflow step's outcome, succeeded or failed, and flushes when the worker's invocation ends", async () => {
    const step = observedWorker(
      'transfer-steps',
      async (event: { fail: boolean }, _context?: Context) => {
        if (event.fail) throw new Error('rail down');
        return { status: 'PROCESSING' };
      },
      { step: { workflow: 'transfer' } },
    );
    await step({ fail: false }, lambdaContext);
    await expect(step({ fail: true }, lambdaContext)).rejects.toThrow('rail down');
    const outcomes = metricsOf(emfLines())
      .filter((m) => m.name === METRIC.workflowSteps)
      .map((m) => m.values);
    expect(outcomes).toEqual([
      { service: 'allowance', stage: 'dev', workflow: 'transfer', outcome: 'succeeded' },
      { service: 'allowance', stage: 'dev', workflow: 'transfer', outcome: 'failed' },
    ]);
  });

  it('keeps at most MAX_PENDING_METRICS outside an invocation (tools and benches never flush)', () => {
    for (let i = 0; i < MAX_PENDING_METRICS + 10; i++) countMetric(METRIC.paymentsPosted);
    expect(takeMetrics()).toHaveLength(MAX_PENDING_METRICS);
  });
});
