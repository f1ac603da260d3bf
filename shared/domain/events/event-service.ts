import { scopeOf } from '../access.js';
import { ApiError, notFound } from '../errors.js';
import type { RequestContext } from '../tenancy.js';
import type { OutboxEvent, Page, PageRequest } from '../types.js';
import { walletsOfEvent } from './event-scope.js';
import type { EventQuery, EventStore } from './ports.js';

/** The events API (decisions.md section 8): an organization's events of 30 days; an agent key sees its wallet's. */
export function createEventService(deps: { store: EventStore }) {
    return {
    async list(ctx: RequestContext, filter: Omit<EventQuery, 'walletId'>, page: PageRequest): Promise<Page<OutboxEvent>> {
      const scope = scopeOf(ctx.principal);
      if (filter.createdAfter !== undefined && Number.isNaN(Date.parse(filter.createdAfter))) {
        throw new ApiError('VALIDATION_ERROR', 'createdAfter must be an ISO 8601 date-time.', { field: 'createdAfter' });
      }
      const createdAfter = filter.createdAfter !== undefined ? new Date(filter.createdAfter).toISOString() : undefined;
      return deps.store.listEvents(scope.organizationId, scope.environment, { type: filter.type, createdAfter, walletId: ctx.principal.walletId ?? undefined }, page);
    },
    async get(ctx: RequestContext, eventId: string): Promise<OutboxEvent> {
      const scope = scopeOf(ctx.principal);
      const event = await deps.store.getEvent(eventId);
      if (!event || event.organizationId !== scope.organizationId || event.environment !== scope.environment) throw notFound('EVENT_NOT_FOUND', eventId);
      const walletId = ctx.principal.walletId;
      if (walletId && !walletsOfEvent(event).includes(walletId)) throw notFound('EVENT_NOT_FOUND', eventId);
      return event;
    },
  };
}

export type EventService = ReturnType<typeof createEventService>;
