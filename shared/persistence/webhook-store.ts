import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { DeliveryStore, WebhookStore } from '../domain/webhooks/ports.js';
import { createCommitter } from './change-writer.js';
import { deliveryCodec, deliveryKeys } from './entities/webhook-delivery.js';
import { webhookCodec, webhookKeys } from './entities/webhook.js';
import { createQueries } from './queries.js';
import { GSI } from './table-schema.js';
import { getItem, type TableContext } from './table-context.js';
import { auditWriters } from './writers/audit-writers.js';
import { webhookWriters } from './writers/webhook-writers.js';

/** An organization environment has a handful of webhooks; more than this is refused at creation. */
export const MAX_WEBHOOKS_READ = 100;

export function createWebhookStore(table: TableContext): WebhookStore & DeliveryStore {
  const { queryIndex } = createQueries(table.client, table.tableName);
  return {
    ...createCommitter(table, { ...webhookWriters, ...auditWriters }),
    async getWebhook(webhookId) {
      const item = await getItem(table, webhookKeys.primary(webhookId));
      return item ? webhookCodec.fromItem(item) : undefined;
    },
    listWebhooks(organizationId, environment, page) {
      return queryIndex(
        GSI.GSI1,
        webhookKeys.ofOrganization(organizationId, environment).GSI1PK,
        page,
        webhookCodec.fromItem,
      );
    },
    async enabledWebhooks(organizationId, environment) {
      const output = await table.client.send(
        new QueryCommand({
          TableName: table.tableName,
          IndexName: GSI.GSI1.name,
          KeyConditionExpression: '#pk = :pk',
          ExpressionAttributeNames: { '#pk': GSI.GSI1.partition },
          ExpressionAttributeValues: { ':pk': webhookKeys.ofOrganization(organizationId, environment).GSI1PK },
          Limit: MAX_WEBHOOKS_READ,
        }),
      );
      return (output.Items ?? []).map(webhookCodec.fromItem).filter((webhook) => webhook.status === 'ENABLED');
    },
    listAttempts(webhookId, page) {
      return queryIndex(
        null,
        webhookKeys.primary(webhookId).PK,
        page,
        deliveryCodec.attemptFromItem,
        undefined,
        deliveryKeys.attemptPrefix,
      );
    },
    async getDelivery(deliveryId) {
      const item = await getItem(table, deliveryKeys.primary(deliveryId));
      return item ? deliveryCodec.fromItem(item) : undefined;
    },
    async createDelivery(delivery) {
      try {
        await table.client.send(
          new PutCommand({
            TableName: table.tableName,
            Item: deliveryCodec.toItem(delivery),
            ConditionExpression: 'attribute_not_exists(PK)',
          }),
        );
        return true;
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) return false;
        throw error;
      }
    },
    async saveDelivery(delivery) {
      await table.client.send(new PutCommand({ TableName: table.tableName, Item: deliveryCodec.toItem(delivery) }));
    },
    async recordAttempt(attempt) {
      await table.client.send(
        new PutCommand({ TableName: table.tableName, Item: deliveryCodec.attemptToItem(attempt) }),
      );
    },
  };
}
