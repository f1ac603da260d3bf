import { walletsOfEvent } from '../../domain/events/event-scope.js';
import type { Environment } from '../../domain/tenancy.js';
import type { OutboxEvent } from '../../domain/types.js';
import { plainJson, str, type Item, type ItemKey } from '../item.js';
import { TTL_ATTRIBUTE, type IndexUsage } from '../table-schema.js';
import { shardedKey } from './shards.js';

export const STORED_EVENT_ENTITY = 'EVENT';

/** Events are kept for the events API 30 days (decisions.md section 8), then DynamoDB's TTL removes them. */
export const EVENT_RETENTION_S = 30 * 24 * 3600;

export const storedEventKeys = {
  primary: (eventId: string): ItemKey => ({ PK: `EVENT#${eventId}`, SK: 'EVENT' }),
  /** GSI1: an organization environment's events, newest first. */
  ofOrganization: (organizationId: string, environment: Environment) => `EVENTS#${organizationId}#${environment}`,
  /**
   * GSI2 and GSI3: the events of each wallet it concerns (wallet-scoped keys), within the event's
   * own organization environment. An event may name a wallet of another organization (a payment's
   * payee): the partition names the event's organization, so the payee's key, which reads the
   * partition of its own organization, never reads the payer's events (decisions.md sections 1, 3).
   */
  ofWallet: (organizationId: string, environment: Environment, walletId: string) =>
    `EVENTS#${organizationId}#${environment}#WALLET#${walletId}`,
  sort: (event: Pick<OutboxEvent, 'createdAt' | 'id'>) => `${event.createdAt}#${event.id}`,
  /** GSI4: an organization environment's events in the order they became visible (the polling feed, event-feed.ts). */
  visible: (organizationId: string, environment: Environment) => `EVENTS#${organizationId}#${environment}#VISIBLE`,
  /** GSI4's sort: the projector's stamp, then the id. */
  visibleSort: (visibleAt: string, eventId: string) => `${visibleAt}#${eventId}`,
  /** A GSI4 sort key after every event stamped at or before `at`. */
  visibleThrough: (at: string) => `${at}#\uffff`,
};

export const storedEventCodec = {
  /**
   * The item of an event stored (made visible) at `visibleAt`, its four index keys on shard `shard`
   * of its organization environment (entities/shards.ts; 0: today's keys). The item's own key is
   * not sharded (one item per event, so a stored event is never stored twice).
   */
  toItem(event: OutboxEvent, visibleAt: string, shard = 0): Item {
    const sort = storedEventKeys.sort(event);
    const [first, second] = walletsOfEvent(event);
    const key = (base: string) => shardedKey(base, shard);
    return {
      ...storedEventKeys.primary(event.id),
      entityType: STORED_EVENT_ENTITY,
      GSI1PK: key(storedEventKeys.ofOrganization(event.organizationId, event.environment)),
      GSI1SK: sort,
      ...(first
        ? { GSI2PK: key(storedEventKeys.ofWallet(event.organizationId, event.environment, first)), GSI2SK: sort }
        : {}),
      ...(second
        ? { GSI3PK: key(storedEventKeys.ofWallet(event.organizationId, event.environment, second)), GSI3SK: sort }
        : {}),
      GSI4PK: key(storedEventKeys.visible(event.organizationId, event.environment)),
      GSI4SK: storedEventKeys.visibleSort(visibleAt, event.id),
      visibleAt,
      id: event.id,
      type: event.type,
      organizationId: event.organizationId,
      environment: event.environment,
      createdAt: event.createdAt,
      data: event.data,
      [TTL_ATTRIBUTE]: Math.floor(Date.parse(event.createdAt) / 1000) + EVENT_RETENTION_S,
    };
  },
  fromItem(item: Item): OutboxEvent {
    return {
      id: str(item.id),
      type: str(item.type),
      organizationId: str(item.organizationId),
      environment: item.environment as Environment,
      createdAt: str(item.createdAt),
      data: plainJson(item.data ?? {}) as Record<string, unknown>,
    };
  },
};

/** What each index of EVENT items serves (one entry of INDEX_USAGE, entities/index-usage.ts). */
export const EVENT_INDEXES = {
  EVENT: {
    GSI1: 'events of an organization environment (events API)',
    GSI2: 'events of the organization environment by the first wallet they concern (wallet-scoped keys)',
    GSI3: 'events of the organization environment by the second wallet they concern',
    GSI4: 'events of an organization environment in the order they became visible, oldest first by `${visibleAt}#${id}` (the polling feed)',
  },
} as const satisfies IndexUsage;
