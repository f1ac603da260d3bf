import * as z from 'zod/mini';
import { AUDIT } from '../domain/audit/actions.js';
import { EVENT_NAMES } from '../domain/event-names.js';
import type { WebhookService } from '../domain/webhooks/webhook-service.js';
import { presentCreatedWebhook, presentDeliveryAttempt, presentWebhook } from '../domain/webhooks/webhook-view.js';
import { HINTS, defineGroup, operation } from './define.js';
import { eventFilterEntry } from './event-filter.js';
import { describe, text } from './fields.js';
import { listOperation } from './list.js';

export interface WebhooksServices {
  webhooks: WebhookService;
}

const op = operation<WebhooksServices>();
const list = listOperation<WebhooksServices>();
const webhookParam = { id: 'The webhook id (`whk_...`).' };
const MAX_EVENT_FILTER = EVENT_NAMES.length;

export const WEBHOOKS = defineGroup<WebhooksServices>()(
  'webhooks',
  {
    // Test events and manual retries queue a delivery attempt; webhook secrets are sealed and opened.
    grants: ['queue:send', 'webhookKey:read'],
  },
  [
    op({
      name: 'createWebhook',
      summary: 'Register a webhook',
      description:
        'Registers an endpoint that receives events as signed POSTs (Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature`). The answer carries the signing secret, shown only this once. Production URLs must be https and resolve to public addresses; sandbox may use http://127.0.0.1.',
      access: 'organization',
      permission: 'admin',
      audit: AUDIT.webhook.create,
      http: { method: 'POST', path: '/v1/webhooks', status: 201 },
      mcp: { tool: 'create_webhook', hints: HINTS.create },
      body: () =>
        z.strictObject({
          url: text(2048, 'The endpoint: https (production), or http/https (sandbox).', { min: 1 }),
          events: describe(
            z.array(eventFilterEntry()).check(z.minLength(1), z.maxLength(MAX_EVENT_FILTER)),
            'Event names to deliver, or ["*"] for every event. Reserved names (not emitted yet) are refused.',
          ),
          description: z.optional(text(1024, 'Free text for your own reference.', { multiline: true })),
        }),
      output: 'createdWebhookView',
      errors: [],
      run: ({ services, auth, audit, body }) => services.webhooks.create(auth, audit, body),
      present: presentCreatedWebhook,
    }),
    list({
      name: 'listWebhooks',
      summary: 'List webhooks',
      description: 'The webhooks of this organization and environment, newest first (never their secrets).',
      access: 'organization',
      permission: 'admin',
      http: { method: 'GET', path: '/v1/webhooks', status: 200 },
      mcp: { tool: 'list_webhooks', hints: HINTS.read },
      filters: () => ({}),
      output: 'webhookPageView',
      errors: [],
      list: ({ services, auth }, page) => services.webhooks.list(auth, page),
      present: presentWebhook,
    }),
    op({
      name: 'getWebhook',
      summary: 'Get a webhook',
      description: 'One webhook (never its secret).',
      access: 'organization',
      permission: 'admin',
      http: { method: 'GET', path: '/v1/webhooks/{id}', status: 200 },
      params: webhookParam,
      mcp: { tool: 'get_webhook', hints: HINTS.read },
      output: 'webhookView',
      errors: ['WEBHOOK_NOT_FOUND'],
      run: ({ services, auth, params }) => services.webhooks.get(auth, params.id!),
      present: presentWebhook,
    }),
    op({
      name: 'deleteWebhook',
      summary: 'Delete a webhook',
      description:
        'Stops deliveries to the webhook at once (attempts still queued are logged as failed) and forgets its secret.',
      access: 'organization',
      permission: 'admin',
      audit: AUDIT.webhook.delete,
      http: { method: 'DELETE', path: '/v1/webhooks/{id}', status: 200 },
      params: webhookParam,
      mcp: { tool: 'delete_webhook', hints: HINTS.destructive },
      output: 'webhookView',
      errors: ['WEBHOOK_NOT_FOUND'],
      run: ({ services, auth, audit, params }) => services.webhooks.remove(auth, audit, params.id!),
      present: presentWebhook,
    }),
    list({
      name: 'listWebhookDeliveries',
      summary: "List a webhook's delivery log",
      description:
        'Every delivery attempt to this webhook, newest first: status code, duration, error and when the next attempt is due.',
      access: 'organization',
      permission: 'admin',
      http: { method: 'GET', path: '/v1/webhooks/{id}/deliveries', status: 200 },
      params: webhookParam,
      mcp: { tool: 'list_webhook_deliveries', hints: HINTS.read },
      filters: () => ({}),
      output: 'deliveryAttemptPageView',
      errors: ['WEBHOOK_NOT_FOUND'],
      list: ({ services, auth, params }, page) => services.webhooks.attempts(auth, params.id!, page),
      present: presentDeliveryAttempt,
    }),
    op({
      name: 'testWebhook',
      summary: 'Send a test event',
      description:
        'Sends a `webhook.test` event to this webhook now (signed like any delivery; retried like any delivery).',
      access: 'organization',
      permission: 'admin',
      audit: AUDIT.webhook.test,
      http: { method: 'POST', path: '/v1/webhooks/{id}/test', status: 202 },
      params: webhookParam,
      mcp: { tool: 'test_webhook', hints: HINTS.create },
      output: 'queuedDeliveryView',
      errors: ['WEBHOOK_NOT_FOUND'],
      run: ({ services, auth, audit, params }) => services.webhooks.test(auth, audit, params.id!),
    }),
    op({
      name: 'retryWebhookDelivery',
      summary: 'Retry a delivery',
      description:
        'One more attempt of a delivery now, whatever its state (delivered, dead-lettered or waiting); the same event id is sent.',
      access: 'organization',
      permission: 'admin',
      audit: AUDIT.webhook.retryDelivery,
      http: { method: 'POST', path: '/v1/webhooks/{id}/deliveries/{deliveryId}/retry', status: 202 },
      params: { ...webhookParam, deliveryId: 'The delivery id (`dlv_...`) from the delivery log.' },
      mcp: { tool: 'retry_webhook_delivery', hints: HINTS.create },
      output: 'queuedDeliveryView',
      errors: ['WEBHOOK_NOT_FOUND', 'DELIVERY_NOT_FOUND'],
      run: ({ services, auth, audit, params }) => services.webhooks.retry(auth, audit, params.id!, params.deliveryId!),
    }),
  ],
);
