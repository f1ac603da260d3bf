import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { EventArchive, EventQuery, EventStore } from '../domain/events/ports.js';
import type { OutboxEvent } from '../domain/types.js';
import { storedEventCodec, storedEventKeys } from './entities/stored-event.js';
import { createQueries, type Filter } from './queries.js';
import { GSI } from './table-schema.js';
import { getItem, type TableContext } from './table-context.js';

function filterOf(query: EventQuery): Filter | undefined {
  const parts: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  if (query.type !== undefined) {
    parts.push('#f_type = :f_type');
    names['#f_type'] = 'type';
    values[':f_type'] = query.type;
  }
  if (query.createdAfter !== undefined) {
    parts.push('#f_createdAt > :f_after');
    names['#f_createdAt'] = 'createdAt';
    values[':f_after'] = query.createdAfter;
  }
  return parts.length > 0 ? { expression: parts.join(' AND '), names, values } : undefined;
}

export function createEventStore(table: TableContext): EventStore & EventArchive {
  const { queryIndex, mergedPages } = createQueries(table.client, table.tableName);
  return {
    async getEvent(eventId) {
      const item = await getItem(table, storedEventKeys.primary(eventId));
      return item ? storedEventCodec.fromItem(item) : undefined;
    },
    listEvents(organizationId, environment, query, page) {
      const filter = filterOf(query);
      if (query.walletId) {
        const partition = storedEventKeys.ofWallet(organizationId, environment, query.walletId);
        return mergedPages([{ index: GSI.GSI2, partition }, { index: GSI.GSI3, partition }], page, storedEventCodec.fromItem, filter);
      }
      return queryIndex(GSI.GSI1, storedEventKeys.ofOrganization(organizationId, environment), page, storedEventCodec.fromItem, filter);
    },
    async storeEvents(events) {
      const stored: OutboxEvent[] = [];
      await Promise.all(
        events.map(async (event) => {
          try {
            await table.client.send(new PutCommand({ TableName: table.tableName, Item: storedEventCodec.toItem(event), ConditionExpression: 'attribute_not_exists(PK)' }));
            stored.push(event);
          } catch (error) {
            if (!(error instanceof ConditionalCheckFailedException)) throw error;
          }
        }),
      );
      return stored;
    },
  };
}
