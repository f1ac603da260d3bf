import type { DeliveryAttempt, WebhookDelivery } from '../../domain/webhooks/types.js';
import { plainJson, recordOf, type Item, type ItemKey } from '../item.js';
import { TTL_ATTRIBUTE } from '../table-schema.js';

export const WEBHOOK_DELIVERY_ENTITY = 'WEBHOOK_DELIVERY';
export const DELIVERY_ATTEMPT_ENTITY = 'DELIVERY_ATTEMPT';

/** Deliveries and their log are kept 30 days, like the events they carry. */
const RETENTION_S = 30 * 24 * 3600;
const ttlOf = (at: string) => Math.floor(Date.parse(at) / 1000) + RETENTION_S;
/** The document client reads numbers wrapped (NumberValue): back to plain numbers. */
const num = (value: unknown): number =>
  Number(typeof value === 'object' && value !== null && 'value' in value ? (value as { value: string }).value : value);
const nullableNum = (value: unknown): number | null => (value === null || value === undefined ? null : num(value));

export const deliveryKeys = {
  primary: (deliveryId: string): ItemKey => ({ PK: `DELIVERY#${deliveryId}`, SK: 'DELIVERY' }),
  /** In the webhook's partition, newest first by attempt time. */
  attempt: (attempt: Pick<DeliveryAttempt, 'webhookId' | 'attemptedAt' | 'deliveryId' | 'attempt'>): ItemKey => ({
    PK: `WEBHOOK#${attempt.webhookId}`,
    SK: `ATTEMPT#${attempt.attemptedAt}#${attempt.deliveryId}#${String(attempt.attempt).padStart(4, '0')}`,
  }),
  attemptPrefix: 'ATTEMPT#',
};

export const deliveryCodec = {
  toItem(delivery: WebhookDelivery): Item {
    return {
      ...deliveryKeys.primary(delivery.id),
      entityType: WEBHOOK_DELIVERY_ENTITY,
      ...delivery,
      [TTL_ATTRIBUTE]: ttlOf(delivery.createdAt),
    };
  },
  fromItem(item: Item): WebhookDelivery {
    const record = recordOf(item) as unknown as WebhookDelivery;
    return { ...record, attempts: num(item.attempts), event: plainJson(record.event) as WebhookDelivery['event'] };
  },
  attemptToItem(attempt: DeliveryAttempt): Item {
    return {
      ...deliveryKeys.attempt(attempt),
      entityType: DELIVERY_ATTEMPT_ENTITY,
      ...attempt,
      [TTL_ATTRIBUTE]: ttlOf(attempt.attemptedAt),
    };
  },
  attemptFromItem(item: Item): DeliveryAttempt {
    const record = recordOf(item) as unknown as DeliveryAttempt;
    return {
      ...record,
      attempt: num(item.attempt),
      statusCode: nullableNum(item.statusCode),
      durationMs: num(item.durationMs),
    };
  },
};
