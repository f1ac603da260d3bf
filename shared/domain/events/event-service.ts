import { scopeOf } from '../access.js';
import { systemClock, type Clock } from '../clock.js';
import { ApiError, notFound } from '../errors.js';
import type { RequestContext } from '../tenancy.js';
import type { OutboxEvent, Page, PageRequest } from '../types.js';
import { FEED_SETTLE_MS, type EventOrder } from './event-feed.js';
import { walletsOfEvent } from './event-scope.js';
import type { EventQuery, EventStore } from './ports.js';

export interface EventListFilter extends Omit<EventQuery, 'walletId'> {
  /** `newest` (default): createdAt, newest first. `visible`: the polling feed (event-feed.ts). */
  order?: EventOrder | undefined;
}

/** The events API (decisions.md section 8): an organization's events of 30 days; an agent key sees its wallet's. */
export function createEventService(deps: { store: EventStore; clock?: Clock }) {
  const clock = deps.clock ?? systemClock;
  return {
    async list(ctx: RequestContext, filter: EventListFilter, page: PageRequest): Promise<Page<OutboxEvent>> {
      const scope = scopeOf(ctx.principal);
      if (filter.createdAfter !== undefined && Number.isNaN(Date.parse(filter.createdAfter))) {
        throw new ApiError('VALIDATION_ERROR', 'createdAfter must be an ISO 8601 date-time.', {
          field: 'createdAfter',
        });
      }
      const createdAfter = filter.createdAfter !== undefined ? new Date(filter.createdAfter).toISOString() : undefined;
      const query = { type: filter.type, createdAfter, walletId: ctx.principal.walletId ?? undefined };
      if (filter.order !== 'visible')
        return deps.store.listEvents(scope.organizationId, scope.environment, query, page);
      // The feed: only events stamped FEED_SETTLE_MS ago or earlier, so that the position answered
      // is never ahead of an event still on its way; a page always answers where to poll from.
      const until = new Date(clock.now().getTime() - FEED_SETTLE_MS).toISOString();
      const after = typeof page.startKey?.after === 'string' ? page.startKey.after : undefined;
      const feed = await deps.store.listVisibleEvents(
        scope.organizationId,
        scope.environment,
        query,
        { after, until },
        page.limit,
      );
      return { items: feed.items, lastKey: { after: feed.position }, more: feed.more };
    },
    async get(ctx: RequestContext, eventId: string): Promise<OutboxEvent> {
      const scope = scopeOf(ctx.principal);
      const event = await deps.store.getEvent(eventId);
      if (!event || event.organizationId !== scope.organizationId || event.environment !== scope.environment)
        throw notFound('EVENT_NOT_FOUND', eventId);
      const walletId = ctx.principal.walletId;
      if (walletId && !walletsOfEvent(event).includes(walletId)) throw notFound('EVENT_NOT_FOUND', eventId);
      return event;
    },
  };
}

export type EventService = ReturnType<typeof createEventService>;
