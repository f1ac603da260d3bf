import { ApiError } from '../../domain/errors.js';
import type { IdempotencyChange } from '../../domain/idempotency/ports.js';
import { epochSecondsOf, idempotencyCodec, slotClaim } from '../entities/idempotency.js';
import type { Item } from '../item.js';
import type { TransactWrite } from '../transact.js';
import type { ChangeWriters } from '../write-builders.js';

/**
 * The one write that takes an idempotency key's slot, whatever it stores there: an answer (a stored
 * refusal, a batch's claim, a card or transfer answer), or the journal record of a movement made
 * with the key (a posting, a payment queued for approval). The slot must be free or hold the key's
 * answer whose window ended by `createdAt` (slotClaim); taken meanwhile, the request is told
 * IDEMPOTENCY_KEY_IN_USE and looks at the slot again (idempotency.ts runIdempotent).
 */
export function slotClaimWrite(tableName: string, item: Item, createdAt: string): TransactWrite {
  return {
    item: { Put: { TableName: tableName, Item: item, ...slotClaim(epochSecondsOf(createdAt)) } },
    onConditionFailed: () =>
      new ApiError('IDEMPOTENCY_KEY_IN_USE', 'A request with this idempotency key was processed concurrently.'),
  };
}

export const idempotencyWriters: ChangeWriters<IdempotencyChange> = {
  idempotency: (tableName, change) => [
    slotClaimWrite(tableName, idempotencyCodec.toItem(change.slotId, change.record), change.record.createdAt),
  ],
};
