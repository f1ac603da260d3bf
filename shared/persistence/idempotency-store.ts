import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { IdempotencyCompleter, IdempotencyStore } from '../domain/idempotency/ports.js';
import { createCommitter } from './change-writer.js';
import { idempotencyWriters } from './writers/idempotency-writers.js';
import { idempotencyCodec, idempotencyKeys } from './entities/idempotency.js';
import { getItem, type TableContext } from './table-context.js';

export function createIdempotencyStore(table: TableContext): IdempotencyStore {
  return {
    ...createCommitter(table, { ...idempotencyWriters }),
    async getIdempotencyRecord(organizationId, environment, key) {
      const item = await getItem(table, idempotencyKeys.primary(organizationId, environment, key));
      return item ? idempotencyCodec.fromItem(item) : undefined;
    },
  };
}

export function createIdempotencyCompleter(table: TableContext): IdempotencyCompleter {
  return {
    async completeIdempotencyRecord(organizationId, environment, key, status, body) {
      await table.client.send(
        new UpdateCommand({
          TableName: table.tableName,
          Key: idempotencyKeys.primary(organizationId, environment, key),
          UpdateExpression: 'SET #status = :status, #body = :body',
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeNames: { '#status': 'status', '#body': 'body' },
          ExpressionAttributeValues: { ':status': status, ':body': body },
        }),
      );
    },
  };
}
