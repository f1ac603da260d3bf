import * as z from 'zod/mini';
import {
  describe,
  enumOf,
  environment,
  id,
  integer,
  lazy,
  nullableText,
  nullableTimestamp,
  objectTag,
  pageOf,
  text,
  timestamp,
  view,
} from '../views.js';
import { DELIVERY_STATUSES, type DeliveryAttempt, type Webhook } from './types.js';
import { everyOf } from '../enums.js';

const webhookFields = () => ({
  id: id('webhook', 'The webhook id.'),
  object: objectTag('webhook'),
  url: text('Where events are POSTed.'),
  events: describe(z.array(z.string()), 'Event names delivered, or ["*"] for every event.'),
  description: nullableText('Free text, or null.'),
  status: enumOf(['ENABLED'], 'Always ENABLED (a deleted webhook is gone).'),
  environment: environment(),
  createdAt: timestamp('When it was registered.'),
});

const example = {
  id: 'whk_Tq8Lm2Zp4Rw9Xb1KLm2Zp4Rw',
  object: 'webhook' as const,
  url: 'https://example.com/hooks/allowance',
  events: ['payment.posted', 'approval.requested'],
  description: null,
  status: 'ENABLED' as const,
  environment: 'SANDBOX' as const,
  createdAt: '2026-11-22T10:00:00.000Z',
};

/** A registered webhook: never its secret. */
export const webhookView = /* @__PURE__ */ lazy(() =>
  view(webhookFields(), 'A webhook endpoint (the signing secret is shown once, at creation).', example),
);

export const webhookPageView = /* @__PURE__ */ lazy(() => pageOf(webhookView, 'A page of webhooks.'));

/** The answer of a creation: the webhook and its raw secret, shown this once. */
export const createdWebhookView = /* @__PURE__ */ lazy(() =>
  view(
    {
      ...webhookFields(),
      secret: text(
        "The signing secret (`whsec_` + base64), shown only in this answer: verify each delivery's `webhook-signature` with it.",
      ),
    },
    'The new webhook with its signing secret (shown once).',
    { ...example, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
  ),
);

export function presentWebhook(webhook: Webhook): z.output<typeof webhookView> {
  return {
    id: webhook.id,
    object: 'webhook',
    url: webhook.url,
    events: webhook.events,
    description: webhook.description,
    status: 'ENABLED',
    environment: webhook.environment,
    createdAt: webhook.createdAt,
  };
}

export function presentCreatedWebhook(created: {
  webhook: Webhook;
  rawSecret: string;
}): z.output<typeof createdWebhookView> {
  return { ...presentWebhook(created.webhook), secret: created.rawSecret };
}

/** One attempt of the delivery log. */
export const deliveryAttemptView = /* @__PURE__ */ lazy(() =>
  view(
    {
      object: objectTag('webhook_delivery_attempt'),
      deliveryId: id(
        'delivery',
        'The delivery (one event to this webhook); retry it with POST /v1/webhooks/{id}/deliveries/{deliveryId}/retry.',
      ),
      webhookId: id('webhook', 'The webhook the event was sent to (the `{id}` of the delivery log).'),
      eventId: id('event', 'The event delivered (the `webhook-id` header).'),
      eventType: text('The event name.'),
      attempt: integer('Attempt number of this delivery, from 1.'),
      statusCode: describe(
        z.nullable(z.int()),
        "The receiver's HTTP status, or null when no answer came (timeout, connection error, refused address) or nothing was sent (the signing secret could not be opened on our side).",
      ),
      durationMs: integer('Time from sending to the answer (or the failure), in milliseconds.'),
      error: nullableText('What went wrong, or null on success.'),
      attemptedAt: timestamp('When the attempt started.'),
      nextAttemptAt: nullableTimestamp(
        'When the next attempt is due, or null (delivered, dead-lettered, or a manual retry).',
      ),
      outcome: enumOf(
        everyOf<DeliveryAttempt['outcome']>()(['SUCCEEDED', 'RETRYING', 'FAILED', 'DEAD_LETTERED']),
        'SUCCEEDED (2xx), RETRYING (another attempt is scheduled), FAILED (a manual retry that failed) or DEAD_LETTERED (3 days of retries are over).',
      ),
    },
    'One attempt to deliver an event to a webhook.',
    {
      object: 'webhook_delivery_attempt',
      deliveryId: 'dlv_4Zq8Tr2Wb9Xk1PLm4Zq8Tr2W',
      webhookId: 'whk_Tq8Lm2Zp4Rw9Xb1KLm2Zp4Rw',
      eventId: 'evt_8Lm2Zq4Tr9Wb1XkPq3Ns5Vd7',
      eventType: 'payment.posted',
      attempt: 1,
      statusCode: 500,
      durationMs: 42,
      error: 'HTTP 500',
      attemptedAt: '2026-11-22T10:00:00.000Z',
      nextAttemptAt: '2026-11-22T10:00:25.000Z',
      outcome: 'RETRYING',
    },
  ),
);

export const deliveryAttemptPageView = /* @__PURE__ */ lazy(() =>
  pageOf(deliveryAttemptView, 'A page of delivery attempts.'),
);

/** Field by field: a field the stored attempt gains never reaches the wire undeclared. */
export function presentDeliveryAttempt(attempt: DeliveryAttempt): z.output<typeof deliveryAttemptView> {
  return {
    object: 'webhook_delivery_attempt',
    deliveryId: attempt.deliveryId,
    webhookId: attempt.webhookId,
    eventId: attempt.eventId,
    eventType: attempt.eventType,
    attempt: attempt.attempt,
    statusCode: attempt.statusCode,
    durationMs: attempt.durationMs,
    error: attempt.error,
    attemptedAt: attempt.attemptedAt,
    nextAttemptAt: attempt.nextAttemptAt,
    outcome: attempt.outcome,
  };
}

/** The answer of a test or a retry: the delivery queued. */
export const queuedDeliveryView = /* @__PURE__ */ lazy(() =>
  view(
    {
      deliveryId: id('delivery', 'The delivery queued; its attempts show in the delivery log.'),
      eventId: id('event', 'The event sent.'),
      status: enumOf(DELIVERY_STATUSES, 'PENDING: the attempt is queued.'),
    },
    'A delivery queued for an immediate attempt.',
    { deliveryId: 'dlv_4Zq8Tr2Wb9Xk1PLm4Zq8Tr2W', eventId: 'evt_8Lm2Zq4Tr9Wb1XkPq3Ns5Vd7', status: 'PENDING' },
  ),
);

/** The payload of `webhook.test` (shared/domain/webhooks/webhook-events.ts). */
export const webhookTestEventView = /* @__PURE__ */ lazy(() =>
  view(
    { webhookId: id('webhook', 'The webhook tested.') },
    'A test event, sent by POST /v1/webhooks/{id}/test to that webhook only.',
    { webhookId: 'whk_Tq8Lm2Zp4Rw9Xb1KLm2Zp4Rw' },
  ),
);
