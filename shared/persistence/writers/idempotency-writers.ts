import { ApiError } from '../../domain/errors.js';
import type { IdempotencyChange } from '../../domain/idempotency/ports.js';
import { idempotencyCodec } from '../entities/idempotency.js';
import type { ChangeWriters } from '../write-builders.js';

export const idempotencyWriters: ChangeWriters<IdempotencyChange> = {
  idempotency: (tableName, change) => [
    {
      item: {
        Put: {
          TableName: tableName,
          Item: idempotencyCodec.toItem(change.record),
          // An expired record that TTL has not removed yet may be replaced.
          ConditionExpression: 'attribute_not_exists(PK) OR expiresAtEpochS < :nowEpochS',
          ExpressionAttributeValues: { ':nowEpochS': Math.floor(new Date(change.record.createdAt).getTime() / 1000) },
        },
      },
      onConditionFailed: () => new ApiError('IDEMPOTENCY_KEY_IN_USE', 'A request with this idempotency key was processed concurrently.'),
    },
  ],
};
