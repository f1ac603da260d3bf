import { randomBytes } from 'node:crypto';
import { CreateTableCommand, DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { ensureTable } from '../../bin/local/dynamodb-local.js';
import { createTableInput } from '../../shared/persistence/table-schema.js';

/**
 * The local run keeps its table between runs (bin/local.ts ensureTable): a table made before the
 * journal projector read old images has a NEW_IMAGE stream, on which a payment written over its
 * key's expired answer would never be projected. ensureTable gives it the schema's stream view.
 */
describe("the local run's table", () => {
  it("gets the schema's stream view (NEW_AND_OLD_IMAGES) when kept from a run with another view", async () => {
    const endpoint = inject('dynamoEndpoint');
    const tableName = `test-${randomBytes(6).toString('hex')}`;
    const client = new DynamoDBClient({
      endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    const input = createTableInput(tableName);
    await client.send(
      new CreateTableCommand({ ...input, StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_IMAGE' } }),
    );

    await ensureTable(endpoint, tableName);

    const table = (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table;
    expect(table?.StreamSpecification).toEqual({ StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' });
    expect(table?.LatestStreamArn).toBeDefined();
    client.destroy();
  });
});
