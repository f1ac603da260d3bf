import type { IdempotencyRecord } from '../../domain/types.js';
import { readBig } from '../client.js';
import { recordOf, type Item, type ItemKey } from '../item.js';
import { transactionKeys } from './transaction.js';

export const IDEMPOTENCY_ENTITY = 'IDEMPOTENCY';

/**
 * An answer stored in an idempotency key's slot (a refusal, a batch's claim): the item of the
 * transaction id derived from the key (shared/domain/idempotency), where a movement made with the
 * key writes its journal record instead, so one conditional write claims the key either way. It
 * is kept (no TTL): a key's later generations are found after it (idempotency.ts).
 */
export const idempotencyKeys = {
  slot: (slotId: string): ItemKey => transactionKeys.primary(slotId),
};

export const idempotencyCodec = {
  toItem(slotId: string, record: IdempotencyRecord): Item {
    return { ...idempotencyKeys.slot(slotId), entityType: IDEMPOTENCY_ENTITY, ...record };
  },
  isAnswer: (item: Item | undefined): boolean => item?.entityType === IDEMPOTENCY_ENTITY,
  fromItem(item: Item): IdempotencyRecord {
    const record = recordOf(item);
    return { ...(record as unknown as IdempotencyRecord), status: Number(readBig(item.status)), expiresAtEpochS: Number(readBig(item.expiresAtEpochS)) };
  },
};
