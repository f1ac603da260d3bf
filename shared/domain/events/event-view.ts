import * as z from 'zod/mini';
import { EMITTED_EVENT_NAMES } from '../event-names.js';
import type { Environment } from '../tenancy.js';
import type { OutboxEvent } from '../types.js';
import { enumOf, environment, id, lazy, objectTag, pageOf, record, timestamp, view } from '../views.js';

/** An event as the events API and webhooks show it (decisions.md section 8). */
export const eventView = /* @__PURE__ */ lazy(() =>
  view(
    {
      id: id(
        'event',
        'The event id: the same on every webhook attempt and in the events API (use it to de-duplicate).',
      ),
      object: objectTag('event'),
      type: enumOf(EMITTED_EVENT_NAMES, 'The event name, e.g. payment.posted.'),
      createdAt: timestamp('When the change it reports was committed.'),
      environment: environment('Environment of the change.'),
      organizationId: id('organization', 'The organization the change belongs to.'),
      data: record(
        'The object as the API presents it: the payload of its `type` (the OpenAPI document\'s `webhooks`, docs/api.md "Events").',
      ),
    },
    'An event: one committed change, kept 30 days.',
    {
      id: 'evt_8Lm2Zq4Tr9Wb1XkPq3Ns5Vd7',
      object: 'event',
      type: 'wallet.funded',
      createdAt: '2026-11-22T10:00:00.000Z',
      environment: 'SANDBOX',
      organizationId: 'org_ipK5yfL5D6aVwx00',
      data: {
        walletId: 'wal_3kTnYpLqW8rXbZ2m',
        transactionId: 'txn_9fQw2LmZr4Tb8Ks1',
        amount: '100.00',
        currency: 'USD',
      },
    },
  ),
);

export const eventPageView = /* @__PURE__ */ lazy(() => pageOf(eventView, 'A page of events.'));

export type EventView = z.output<typeof eventView>;

export function presentEvent(event: OutboxEvent): EventView {
  return {
    id: event.id,
    object: 'event',
    type: event.type as EventView['type'],
    createdAt: event.createdAt,
    environment: event.environment,
    organizationId: event.organizationId,
    data: event.data,
  };
}

/** The body of a webhook delivery: `{id, type, createdAt, environment, organizationId, data}`. */
export function webhookBodyOf(event: OutboxEvent): {
  id: string;
  type: string;
  createdAt: string;
  environment: Environment;
  organizationId: string;
  data: Record<string, unknown>;
} {
  return {
    id: event.id,
    type: event.type,
    createdAt: event.createdAt,
    environment: event.environment,
    organizationId: event.organizationId,
    data: event.data,
  };
}
