import type { Environment } from '../../domain/tenancy.js';
import type { IdempotencyRecord } from '../../domain/types.js';
import { readBig } from '../client.js';
import { recordOf, type Item, type ItemKey } from '../item.js';
import { TTL_ATTRIBUTE } from '../table-schema.js';

export const IDEMPOTENCY_ENTITY = 'IDEMPOTENCY';

/** One record per organization, environment and key; TTL removes it after its retention. */
export const idempotencyKeys = {
  primary: (organizationId: string, environment: Environment, idempotencyKey: string): ItemKey => ({
    PK: `IDEMP#${organizationId}#${environment}#${idempotencyKey}`,
    SK: 'IDEMP',
  }),
};

export const idempotencyCodec = {
  toItem(record: IdempotencyRecord): Item {
    const { expiresAtEpochS, ...rest } = record;
    return { ...idempotencyKeys.primary(record.organizationId, record.environment, record.key), entityType: IDEMPOTENCY_ENTITY, ...rest, expiresAtEpochS, [TTL_ATTRIBUTE]: expiresAtEpochS };
  },
  fromItem(item: Item): IdempotencyRecord {
    const record = recordOf(item);
    return { ...(record as unknown as IdempotencyRecord), status: Number(readBig(item.status)), expiresAtEpochS: Number(readBig(item.expiresAtEpochS)) };
  },
};
