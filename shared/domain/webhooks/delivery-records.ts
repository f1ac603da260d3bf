import type { Clock } from '../clock.js';
import { derivedId } from '../ledger/derived-ids.js';
import type { OutboxEvent } from '../types.js';
import type { DeliveryStore } from './ports.js';
import type { Webhook, WebhookDelivery } from './types.js';

/** The delivery of an event to a webhook has an id derived from both: an event seen twice is delivered once. */
export const deliveryIdOf = (webhookId: string, eventId: string) =>
  derivedId('delivery', `delivery|${webhookId}|${eventId}`);

/**
 * The record of one event's delivery to one webhook (PENDING, no attempt yet), created once: what
 * the delivery service's fan-out and the webhook service's test event share. Apart from the
 * delivery service (the attempts, their sender, signing and backoff), which only the
 * webhook-delivery worker runs.
 */
export function deliveryRecords(deps: { store: Pick<DeliveryStore, 'createDelivery'>; clock: Clock }) {
  /** The new delivery, or undefined when it exists already (the event came twice). */
  async function newDelivery(webhook: Webhook, event: OutboxEvent): Promise<WebhookDelivery | undefined> {
    const delivery: WebhookDelivery = {
      id: await deliveryIdOf(webhook.id, event.id),
      webhookId: webhook.id,
      organizationId: webhook.organizationId,
      environment: webhook.environment,
      event,
      status: 'PENDING',
      attempts: 0,
      firstAttemptAt: null,
      nextAttemptAt: null,
      createdAt: deps.clock.now().toISOString(),
    };
    return (await deps.store.createDelivery(delivery)) ? delivery : undefined;
  }
  return { newDelivery };
}

export type DeliveryRecords = ReturnType<typeof deliveryRecords>;
