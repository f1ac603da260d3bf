/**
 * The plain floor of the bundle guard (bench/bundles.ts): the floor as it was before issue 26, the
 * smallest handler that still keeps the DynamoDB code every function group needs (a
 * DynamoDBDocumentClient sending one GetCommand) and nothing else, no observability. The size
 * targets are ratios to this bundle, after taking the observability layer out of the function's
 * bundle once: (bundle - layer) / plain floor, where the layer is what the observed floor
 * (bench/lib/floor-handler.ts) weighs more than this one. The layer is allowed once per bundle, at
 * its measured weight, and never multiplied by a target's ratio (docs/performance.md "Issue 26").
 *
 * Like the service's container, the client is created on first use, not at import. Never deployed.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';

let client: DynamoDBDocumentClient | undefined;

export async function handler(event: { id?: string }): Promise<Record<string, unknown> | null> {
  client ??= DynamoDBDocumentClient.from(new DynamoDBClient({}), { unmarshallOptions: { wrapNumbers: true } });
  const { Item } = await client.send(
    new GetCommand({ TableName: process.env.TABLE_NAME, Key: { PK: event.id ?? 'floor', SK: 'floor' } }),
  );
  return Item ?? null;
}
