import { ApiError } from '../../domain/errors.js';
import type { IdempotencyChange } from '../../domain/idempotency/ports.js';
import { IDEMPOTENCY_ENTITY, idempotencyCodec, idempotencyKeys } from '../entities/idempotency.js';
import { put, type ChangeWriters } from '../write-builders.js';

const inUse = () => new ApiError('IDEMPOTENCY_KEY_IN_USE', 'A request with this idempotency key was processed concurrently.');

export const idempotencyWriters: ChangeWriters<IdempotencyChange> = {
  // A slot is claimed once, by an answer or by a movement's journal record (never overwritten: a
  // claim is always an insert, so the journal stream sees every movement's record as new).
  idempotency: (tableName, change) => [put(tableName, idempotencyCodec.toItem(change.slotId, change.record), inUse)],

  // Only an answer, and only once its window is over (whether or not the TTL has come yet).
  releaseExpiredAnswer: (tableName, change) => [
    {
      item: {
        Delete: {
          TableName: tableName,
          Key: idempotencyKeys.slot(change.slotId),
          ConditionExpression: 'entityType = :answer AND expiresAtEpochS <= :now',
          ExpressionAttributeValues: { ':answer': IDEMPOTENCY_ENTITY, ':now': change.nowEpochS },
        },
      },
      onConditionFailed: inUse,
    },
  ],
};
