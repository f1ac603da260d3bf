import * as z from 'zod/mini';
import { EVENT_ORDERS } from '../domain/events/event-feed.js';
import type { EventService } from '../domain/events/event-service.js';
import { presentEvent } from '../domain/events/event-view.js';
import { HINTS, defineGroup, operation } from './define.js';
import { emittedEventName } from './event-filter.js';
import { describe, text } from './fields.js';
import { listOperation } from './list.js';

export interface EventsServices {
  events: EventService;
}

const op = operation<EventsServices>();
const list = listOperation<EventsServices>();

export const EVENTS = defineGroup<EventsServices>()('events', {}, [
  list({
    name: 'listEvents',
    summary: 'List events',
    description:
      "Events of the last 30 days, newest first, optionally of one type or after a time: how an agent that can not receive webhooks learns that its approval was decided or its payment posted. An agent key sees only its wallet's events. " +
      'To poll without missing any, use `order=visible`: events in the order they became visible, oldest first, and always a `cursor`, even on an empty page; call again with the same query and the last cursor (`hasMore` false: caught up, wait before the next call), and de-duplicate by event id (an event may come twice, never not at all).',
    access: 'key',
    permission: 'wallets:read',
    http: { method: 'GET', path: '/v1/events', status: 200 },
    mcp: { tool: 'list_events', hints: HINTS.read },
    filters: () => ({
      type: z.optional(
        describe(
          emittedEventName(),
          'Only events of this type, e.g. approval.approved. Reserved names (not emitted yet) are refused.',
        ),
      ),
      createdAfter: z.optional(text(64, 'Only events after this time: ISO 8601 date-time.', { min: 1 })),
      order: z.optional(
        describe(
          z.enum(EVENT_ORDERS),
          '`newest` (default): by createdAt, newest first; events can become visible a few seconds after their createdAt, so polling with createdAfter may skip one. `visible`: the polling feed, oldest first in the order events became visible (about 3 s after they are stored), with a cursor on every page, also an empty one: polling with the last cursor never skips an event.',
        ),
      ),
    }),
    output: 'eventPageView',
    errors: [],
    list: ({ services, auth, query }, page) =>
      services.events.list(auth, { type: query.type, createdAfter: query.createdAfter, order: query.order }, page),
    present: presentEvent,
  }),
  op({
    name: 'getEvent',
    summary: 'Get an event',
    description: 'One event of the last 30 days by id (the `webhook-id` of its deliveries).',
    access: 'key',
    permission: 'wallets:read',
    http: { method: 'GET', path: '/v1/events/{id}', status: 200 },
    params: { id: 'The event id (`evt_...`).' },
    mcp: { tool: 'get_event', hints: HINTS.read },
    output: 'eventView',
    errors: ['EVENT_NOT_FOUND'],
    run: ({ services, auth, params }) => services.events.get(auth, params.id!),
    present: presentEvent,
  }),
]);
