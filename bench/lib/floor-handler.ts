/**
 * The "floor" of the bundle benchmark (bench/bundles.ts): the smallest handler that still keeps the
 * DynamoDB code every function group needs, i.e. a DynamoDBDocumentClient sending one GetCommand.
 * It is bundled with the same options as the function groups; a group's bundle size and cold
 * import time are reported as ratios to this one.
 *
 * Like the service's container, the client is created on first use, not at import, so the floor's
 * import time is module evaluation only (as it is for the groups). Never deployed.
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
