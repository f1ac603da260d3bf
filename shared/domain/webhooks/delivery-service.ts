import type { Clock } from '../clock.js';
import { webhookBodyOf } from '../events/event-view.js';
import type { OutboxEvent } from '../types.js';
import { DELIVERY_TIMEOUT_MS, nextAttemptAt } from './backoff.js';
import { deliveryRecords } from './delivery-records.js';
import type { DeliveryMessage, DeliveryQueue, DeliveryStore, SecretCipher, WebhookSender } from './ports.js';
import { domainLog, telemetry } from '../telemetry.js';
import { matchesFilter, type Webhook, type WebhookDelivery } from './types.js';

export interface DeliveryDeps {
  store: Pick<DeliveryStore, 'getWebhook' | 'getDelivery' | 'createDelivery' | 'saveDelivery' | 'recordAttempt'> &
    Partial<Pick<DeliveryStore, 'enabledWebhooks'>>;
  queue: DeliveryQueue;
  sender: WebhookSender;
  secrets: SecretCipher;
  /** The Standard Webhooks headers of one attempt (shared/webhooks/signature.ts). */
  sign: (secret: string, eventId: string, timestampS: number, body: string) => Record<string, string>;
  clock: Clock;
  /** TIME_SCALE: divides retry durations in sandbox. */
  timeScale: number;
  random?: () => number;
  /**
   * Where a signing secret that could not be opened is reported (the attempt records only that it
   * failed), and each attempt's outcome (`info`, with the event's correlation id).
   */
  log?: DeliveryLog;
}

/**
 * The attempt's error when the webhook's signing secret could not be opened (e.g. the key could not
 * be read): our fault, not the receiver's. Retried like a network error; a manual attempt that
 * fails this way leaves the delivery's own status (and its automatic retries) as they were.
 */
/** What the delivery service logs through (shared/observability/log.ts `log` fits). */
export interface DeliveryLog {
  error(message: string, ...details: unknown[]): void;
  info?(message: string, attributes?: Record<string, unknown>): void;
}

/** The metric outcome of an attempt (metric-names.ts WebhookDeliveries): delivered, failed (retried or over), dead_lettered. */
const METRIC_OUTCOME = {
  SUCCEEDED: 'delivered',
  RETRYING: 'failed',
  FAILED: 'failed',
  DEAD_LETTERED: 'dead_lettered',
} as const;

const correlationOf = (event: OutboxEvent) => (event.correlationId ? { correlationId: event.correlationId } : {});

export const SECRET_UNAVAILABLE = 'The signing secret could not be opened on our side; nothing was sent.';

/**
 * Webhook delivery (decisions.md section 8), the consumer of the webhook-delivery queue: fans an
 * event out to the matching webhooks, then attempts each delivery with Standard Webhooks
 * headers; a non-2xx answer or a timeout schedules the next attempt (backoff with jitter) until
 * the 3-day window closes, then the delivery is dead-lettered. Every attempt is logged. At least
 * once: the same event id (`webhook-id`) on every attempt.
 */
export function createDeliveryService(deps: DeliveryDeps) {
  const random = deps.random ?? Math.random;
  const now = () => deps.clock.now().getTime();

  const { newDelivery } = deliveryRecords(deps);

  async function fanOut(event: OutboxEvent): Promise<number> {
    if (!deps.store.enabledWebhooks) throw new Error('fan-out needs enabledWebhooks');
    const webhooks = (await deps.store.enabledWebhooks(event.organizationId, event.environment)).filter((webhook) =>
      matchesFilter(webhook, event.type),
    );
    let attempted = 0;
    for (const webhook of webhooks) {
      const delivery = await newDelivery(webhook, event);
      if (!delivery) continue; // delivered before (the event came twice)
      // One message per delivery: a slow receiver holds up neither the others nor the fan-out.
      await deps.queue.send({ kind: 'attempt', deliveryId: delivery.id, ...correlationOf(event) }, 0);
      attempted += 1;
    }
    return attempted;
  }

  async function attempt(delivery: WebhookDelivery, webhook: Webhook | undefined, manual: boolean): Promise<void> {
    const startedAt = now();
    const number = delivery.attempts + 1;
    const firstAttemptAt = delivery.firstAttemptAt ? Date.parse(delivery.firstAttemptAt) : startedAt;
    let result: { statusCode: number | null; error: string | null };
    if (!webhook || webhook.status !== 'ENABLED') {
      result = { statusCode: null, error: 'The webhook was deleted.' };
    } else {
      const secret = await deps.secrets.decrypt(webhook.secret).catch((error: unknown) => {
        (deps.log ?? domainLog).error(
          `delivery ${delivery.id}: the signing secret of ${webhook.id} could not be opened`,
          error instanceof Error ? error.message : 'unknown error',
        );
        return undefined;
      });
      if (secret === undefined) {
        result = { statusCode: null, error: SECRET_UNAVAILABLE };
      } else {
        const body = JSON.stringify(webhookBodyOf(delivery.event));
        const headers = {
          'content-type': 'application/json',
          'user-agent': 'Allowance-Webhooks/1',
          ...deps.sign(secret, delivery.event.id, Math.floor(startedAt / 1000), body),
        };
        result = await deps.sender.post({
          url: webhook.url,
          environment: webhook.environment,
          headers,
          body,
          timeoutMs: DELIVERY_TIMEOUT_MS,
        });
      }
    }
    const durationMs = Math.max(0, now() - startedAt);
    const delivered = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
    const scale = delivery.environment === 'SANDBOX' ? deps.timeScale : 1;
    const gone = !webhook || webhook.status !== 'ENABLED';
    const next =
      delivered || manual || gone
        ? null
        : nextAttemptAt({ attempt: number, firstAttemptAt, now: now(), scale, random: random() });
    // A deleted webhook's attempts end FAILED, not in the DLQ: nobody needs to look at them.
    const outcome = delivered ? 'SUCCEEDED' : manual || gone ? 'FAILED' : next === null ? 'DEAD_LETTERED' : 'RETRYING';
    const error = delivered ? null : (result.error ?? `HTTP ${result.statusCode}`);
    telemetry().webhookAttempt(METRIC_OUTCOME[outcome], durationMs);
    (deps.log ?? domainLog).info?.('webhook delivery attempt', {
      deliveryId: delivery.id,
      webhookId: delivery.webhookId,
      eventId: delivery.event.id,
      eventType: delivery.event.type,
      attempt: number,
      outcome,
      statusCode: result.statusCode,
      durationMs,
      ...(delivery.event.correlationId ? { correlationId: delivery.event.correlationId } : {}),
    });
    await deps.store.recordAttempt({
      deliveryId: delivery.id,
      webhookId: delivery.webhookId,
      eventId: delivery.event.id,
      eventType: delivery.event.type,
      attempt: number,
      statusCode: result.statusCode,
      durationMs,
      error,
      attemptedAt: new Date(startedAt).toISOString(),
      nextAttemptAt: next === null ? null : new Date(next).toISOString(),
      outcome,
    });
    const attempted = { ...delivery, attempts: number, firstAttemptAt: new Date(firstAttemptAt).toISOString() };
    if (manual && result.error === SECRET_UNAVAILABLE) {
      // Our fault, not the receiver's: the delivery keeps its status and its next automatic attempt.
      await deps.store.saveDelivery(attempted);
      return;
    }
    const status = outcome === 'RETRYING' ? 'PENDING' : outcome;
    await deps.store.saveDelivery({
      ...attempted,
      nextAttemptAt: next === null ? null : new Date(next).toISOString(),
      status,
    });
    if (next !== null)
      await deps.queue.send(
        { kind: 'attempt', deliveryId: delivery.id, notBefore: next, ...correlationOf(delivery.event) },
        next - now(),
      );
    else if (outcome === 'DEAD_LETTERED') await deps.queue.deadLetter({ kind: 'attempt', deliveryId: delivery.id });
  }

  async function attemptById(deliveryId: string, manual: boolean): Promise<void> {
    const delivery = await deps.store.getDelivery(deliveryId);
    if (!delivery) return;
    if (!manual && delivery.status !== 'PENDING') return; // delivered or over: a duplicate message
    await attempt(delivery, await deps.store.getWebhook(delivery.webhookId), manual);
  }

  return {
    fanOut,
    /** One queue message. A message due later (the queue's delay is capped) goes back until due. */
    async handle(message: DeliveryMessage): Promise<void> {
      if (message.kind === 'event') {
        await fanOut(message.event);
        return;
      }
      const wait = (message.notBefore ?? 0) - now();
      if (wait > 0) {
        await deps.queue.send(message, wait);
        return;
      }
      await attemptById(message.deliveryId, message.manual === true);
    },
    /** A delivery created now for one webhook (the test event), attempted from the queue. */
    newDelivery,
  };
}

export type DeliveryService = ReturnType<typeof createDeliveryService>;
