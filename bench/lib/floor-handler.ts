/**
 * The "floor" of the bundle benchmark (bench/bundles.ts): the smallest handler that still keeps the
 * DynamoDB code every function group needs, i.e. a DynamoDBDocumentClient sending one GetCommand.
 * It is bundled with the same options as the function groups; a group's bundle size and cold
 * import time are reported as ratios to this one.
 *
 * Since issue 26 every function is observed (Powertools for AWS Lambda's Logger and Metrics, the
 * redaction guard, one line and one metrics flush per invocation: shared/observability), so this
 * floor is observed too: wrapped by the same `observedWorker`, recording a metric. What it weighs
 * more than the plain floor (bench/lib/floor-handler-unobserved.ts, the floor before issue 26) is
 * the observability layer, which the size targets allow once per bundle (`sizeRatioOf` in
 * bench/bundles.ts; docs/performance.md "Issue 26"); import ratios are taken to this floor.
 *
 * Like the service's container, the client is created on first use, not at import, so the floor's
 * import time is module evaluation only (as it is for the groups). Never deployed.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { observedWorker } from '../../shared/observability/invocation.js';
import { METRIC } from '../../shared/observability/metric-names.js';
import { countMetric } from '../../shared/observability/metrics.js';

let client: DynamoDBDocumentClient | undefined;

export const handler = observedWorker(
  'floor',
  async (event: { id?: string }): Promise<Record<string, unknown> | null> => {
    client ??= DynamoDBDocumentClient.from(new DynamoDBClient({}), { unmarshallOptions: { wrapNumbers: true } });
    const { Item } = await client.send(
      new GetCommand({ TableName: process.env.TABLE_NAME, Key: { PK: event.id ?? 'floor', SK: 'floor' } }),
    );
    countMetric(METRIC.consumedWriteUnits, { operation: 'floor' }, 0);
    return Item ?? null;
  },
);
