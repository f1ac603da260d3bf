import { IDEMPOTENCY_TTL_AFTER_WINDOW_S } from '../../domain/idempotency/idempotency.js';
import type { IdempotencyRecord } from '../../domain/types.js';
import { TTL_ATTRIBUTE } from '../table-schema.js';
import { readBig } from '../client.js';
import { recordOf, type Item, type ItemKey } from '../item.js';
import { transactionKeys } from './transaction.js';

export const IDEMPOTENCY_ENTITY = 'IDEMPOTENCY';

/**
 * An answer stored in an idempotency key's slot (a refusal, a batch's claim, a card or transfer
 * answer): the item of the transaction id derived from the key (shared/domain/idempotency), where a
 * movement made with the key writes its journal record instead, so one conditional write claims
 * the key either way. An answer carries the table's TTL (24 h after its key's window); a journal
 * record never does (it is the ledger). An answer is only ever the last claim of its key: the key's
 * next claim, once the answer's window is over, takes the answer's own slot (slotClaim), so the
 * slots before the last are all journal records and the TTL never leaves a hole that would hide a
 * later claim (idempotency.ts finds a key's claims as a run of taken slots).
 */
export const idempotencyKeys = {
  slot: (slotId: string): ItemKey => transactionKeys.primary(slotId),
};

export const idempotencyCodec = {
  toItem(slotId: string, record: IdempotencyRecord): Item {
    return {
      ...idempotencyKeys.slot(slotId),
      entityType: IDEMPOTENCY_ENTITY,
      ...record,
      [TTL_ATTRIBUTE]: record.expiresAtEpochS + IDEMPOTENCY_TTL_AFTER_WINDOW_S,
    };
  },
  isAnswer: (item: Item | undefined): boolean => item?.entityType === IDEMPOTENCY_ENTITY,
  fromItem(item: Item): IdempotencyRecord {
    const record = recordOf(item);
    return {
      ...(record as unknown as IdempotencyRecord),
      status: Number(readBig(item.status)),
      expiresAtEpochS: Number(readBig(item.expiresAtEpochS)),
    };
  },
};

/**
 * The condition of a write claiming a key's slot (an answer's put, or the put of a movement's
 * journal record marked `reclaimedSlot`): the slot is free, or holds an answer whose window ended
 * by `nowEpochS` (its item may not be deleted by the TTL yet). A journal record there, or a live
 * answer, fails it: IDEMPOTENCY_KEY_IN_USE.
 */
export function slotClaim(nowEpochS: number): {
  ConditionExpression: string;
  ExpressionAttributeValues: Record<string, unknown>;
} {
  return {
    ConditionExpression: 'attribute_not_exists(PK) OR (entityType = :slotAnswer AND expiresAtEpochS <= :slotNow)',
    ExpressionAttributeValues: { ':slotAnswer': IDEMPOTENCY_ENTITY, ':slotNow': nowEpochS },
  };
}

export const epochSecondsOf = (iso: string): number => Math.floor(Date.parse(iso) / 1000);
