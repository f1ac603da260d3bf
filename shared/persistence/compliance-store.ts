import { QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { ComplianceStore } from '../domain/compliance/ports.js';
import { API_KEY_ENTITY } from './entities/api-key.js';
import { webhookCodec, webhookKeys } from './entities/webhook.js';
import { GSI } from './table-schema.js';
import type { TableContext } from './table-context.js';

export function createComplianceStore(table: TableContext): ComplianceStore {
  return {
    async keyHygiene(now) {
      let activeKeysWithoutPermissions = 0;
      let expiredActiveKeys = 0;
      let startKey: Record<string, unknown> | undefined;
      do {
        const page = await table.client.send(
          new ScanCommand({
            TableName: table.tableName,
            FilterExpression: 'entityType = :type AND #status = :active',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':type': API_KEY_ENTITY, ':active': 'ACTIVE' },
            ...(startKey ? { ExclusiveStartKey: startKey } : {}),
          }),
        );
        for (const item of page.Items ?? []) {
          if (!Array.isArray(item.permissions) || item.permissions.length === 0) activeKeysWithoutPermissions++;
          if (typeof item.expiresAt === 'string' && item.expiresAt <= now.toISOString()) expiredActiveKeys++;
        }
        startKey = page.LastEvaluatedKey;
      } while (startKey);
      return { activeKeysWithoutPermissions, expiredActiveKeys };
    },
    async sampleWebhookSecrets(limit) {
      const output = await table.client.send(
        new QueryCommand({
          TableName: table.tableName,
          IndexName: GSI.GSI2.name,
          KeyConditionExpression: 'GSI2PK = :pk',
          ExpressionAttributeValues: { ':pk': webhookKeys.all().GSI2PK },
          Limit: limit,
        }),
      );
      return (output.Items ?? []).map(webhookCodec.secretOf);
    },
  };
}
