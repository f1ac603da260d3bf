import * as z from 'zod/mini';
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

export const EVENTS = defineGroup<EventsServices>('events', [
  list({
    name: 'listEvents',
    summary: 'List events',
    description: 'Events of the last 30 days, newest first, optionally of one type or after a time: how an agent that can not receive webhooks learns that its approval was decided or its payment posted. An agent key sees only its wallet\'s events.',
    access: 'key',
    permission: 'wallets:read',
    http: { method: 'GET', path: '/v1/events', status: 200 },
    mcp: { tool: 'list_events', hints: HINTS.read },
    filters: () => ({
      type: z.optional(describe(emittedEventName(), 'Only events of this type, e.g. approval.approved. Reserved names (not emitted yet) are refused.')),
      createdAfter: z.optional(text(64, 'Only events after this time: ISO 8601 date-time.', { min: 1 })),
    }),
    output: 'eventPageView',
    errors: [],
    list: ({ services, auth, query }, page) => services.events.list(auth, { type: query.type, createdAfter: query.createdAfter }, page),
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
