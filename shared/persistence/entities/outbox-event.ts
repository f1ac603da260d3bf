import type { Environment } from '../../domain/tenancy.js';
import type { OutboxEvent } from '../../domain/types.js';
import { str, type Item, type ItemKey } from '../item.js';
import { correlationAttribute, correlationOfItem } from './correlation.js';
import { TTL_ATTRIBUTE } from '../table-schema.js';

export const OUTBOX_EVENT_ENTITY = 'OUTBOX_EVENT';

/** An event is published from the table's stream; the item is then kept a week. */
const OUTBOX_RETENTION_S = 7 * 24 * 3600;

export const outboxEventKeys = {
  primary: (eventId: string): ItemKey => ({ PK: `OUTBOX#${eventId}`, SK: 'EVENT' }),
};

export const outboxEventCodec = {
  toItem(event: OutboxEvent): Item {
    const ttl = Math.floor(new Date(event.createdAt).getTime() / 1000) + OUTBOX_RETENTION_S;
    const { correlationId, ...fields } = event;
    return {
      ...outboxEventKeys.primary(event.id),
      entityType: OUTBOX_EVENT_ENTITY,
      ...fields,
      ...correlationAttribute(correlationId),
      [TTL_ATTRIBUTE]: ttl,
    };
  },
  fromItem(item: Item): OutboxEvent {
    return {
      id: str(item.id),
      type: str(item.type),
      organizationId: str(item.organizationId),
      environment: item.environment as Environment,
      createdAt: str(item.createdAt),
      data: (item.data ?? {}) as Record<string, unknown>,
      ...correlationOfItem(item),
    };
  },
};
