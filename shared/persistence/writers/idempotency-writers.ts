import { ApiError } from '../../domain/errors.js';
import type { IdempotencyChange } from '../../domain/idempotency/ports.js';
import { epochSecondsOf, idempotencyCodec, slotClaim } from '../entities/idempotency.js';
import type { ChangeWriters } from '../write-builders.js';

export const idempotencyWriters: ChangeWriters<IdempotencyChange> = {
  // A slot is claimed by an answer or a movement's journal record: a free slot, or one whose answer's window is over.
  idempotency: (tableName, change) => [
    {
      item: { Put: { TableName: tableName, Item: idempotencyCodec.toItem(change.slotId, change.record), ...slotClaim(epochSecondsOf(change.record.createdAt)) } },
      onConditionFailed: () => new ApiError('IDEMPOTENCY_KEY_IN_USE', 'A request with this idempotency key was processed concurrently.'),
    },
  ],
};
