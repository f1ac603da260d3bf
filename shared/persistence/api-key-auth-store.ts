import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ApiKeyAuthReader } from '../domain/api-keys/ports.js';
import { apiKeyCodec, apiKeyKeys } from './entities/api-key.js';
import { getItem, type TableContext } from './table-context.js';

/** The reads of authentication, on every request path: kept apart from the key store (no writers). */
export function createApiKeyAuthReader(table: TableContext): ApiKeyAuthReader {
  return {
    async getApiKeyByHash(hash) {
      const item = await getItem(table, apiKeyKeys.byHash(hash));
      return item ? apiKeyCodec.fromItem(item) : undefined;
    },
    async touchApiKey(hash, now, minIntervalMs) {
      try {
        await table.client.send(
          new UpdateCommand({
            TableName: table.tableName,
            Key: apiKeyKeys.byHash(hash),
            UpdateExpression: 'SET lastUsedAt = :now',
            ConditionExpression:
              'attribute_exists(PK) AND (attribute_not_exists(lastUsedAt) OR lastUsedAt < :threshold)',
            ExpressionAttributeValues: {
              ':now': now.toISOString(),
              ':threshold': new Date(now.getTime() - minIntervalMs).toISOString(),
            },
          }),
        );
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
      }
    },
  };
}
