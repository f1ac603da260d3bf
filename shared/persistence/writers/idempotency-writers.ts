import { ApiError } from '../../domain/errors.js';
import type { IdempotencyChange } from '../../domain/idempotency/ports.js';
import { idempotencyCodec } from '../entities/idempotency.js';
import { put, type ChangeWriters } from '../write-builders.js';

export const idempotencyWriters: ChangeWriters<IdempotencyChange> = {
  // A slot is claimed once, by an answer or by a movement's journal record (never overwritten).
  idempotency: (tableName, change) => [
    put(tableName, idempotencyCodec.toItem(change.slotId, change.record), () => new ApiError('IDEMPOTENCY_KEY_IN_USE', 'A request with this idempotency key was processed concurrently.')),
  ],
};
