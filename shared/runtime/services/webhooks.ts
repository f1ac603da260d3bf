import { SQSClient } from '@aws-sdk/client-sqs';
import { deliveryRecords } from '../../domain/webhooks/delivery-records.js';
import { createDeliveryService, type DeliveryService } from '../../domain/webhooks/delivery-service.js';
import type { DeliveryQueue, DeliveryStore, WebhookSender, WebhookStore } from '../../domain/webhooks/ports.js';
import { createWebhookService, type WebhookService } from '../../domain/webhooks/webhook-service.js';
import { localDeliveryQueue, sqsDeliveryQueue } from '../../events/delivery-queue.js';
import { createWebhookStore } from '../../persistence/webhook-store.js';
import { httpSender, resolveAll } from '../../webhooks/http-sender.js';
import { secretCipher } from '../../webhooks/secret-cipher.js';
import { newWebhookSecret, webhookHeaders } from '../../webhooks/signature.js';
import { checkWebhookUrl } from '../../webhooks/url-guard.js';
import { WEBHOOK_DELIVERY_QUEUE } from '../../workers.js';
import type { Core } from '../core.js';
import { log } from '../../observability/log.js';
import { traced } from '../../observability/tracer.js';
import { cipherOf } from '../webhook-cipher.js';

/** The queue of webhook attempts: SQS in AWS (WEBHOOK_QUEUE_URL), the in-process queue locally. */
export function deliveryQueue(core: Core): DeliveryQueue {
  const { config } = core;
  if (config.webhookQueueUrl) {
    if (!config.webhookDeadLetterUrl) throw new Error('WEBHOOK_QUEUE_URL needs WEBHOOK_DLQ_URL');
    return sqsDeliveryQueue(
      traced(new SQSClient({ region: config.region })),
      config.webhookQueueUrl,
      config.webhookDeadLetterUrl,
    );
  }
  return localDeliveryQueue(WEBHOOK_DELIVERY_QUEUE);
}

/** The webhook-delivery worker's service (functions/webhook-delivery). */
export function deliveryService(
  core: Core,
  overrides: { store?: DeliveryStore; queue?: DeliveryQueue; sender?: WebhookSender } = {},
): DeliveryService {
  const secrets = cipherOf(core);
  return createDeliveryService({
    store: overrides.store ?? createWebhookStore(core.table),
    queue: overrides.queue ?? deliveryQueue(core),
    sender: overrides.sender ?? httpSender(resolveAll, { localRun: core.config.localRun }),
    secrets: secrets ?? secretCipher(async () => undefined),
    sign: webhookHeaders,
    clock: core.clock,
    timeScale: core.config.timeScale,
    log,
  });
}

export function webhookService(
  core: Core,
  { store = createWebhookStore(core.table) }: { store?: WebhookStore & DeliveryStore } = {},
): WebhookService {
  const queue = deliveryQueue(core);
  return createWebhookService({
    store,
    clock: core.clock,
    ids: core.ids,
    secrets: cipherOf(core),
    checkUrl: async (url, environment) => {
      const checked = await checkWebhookUrl(url, environment, resolveAll, { localRun: core.config.localRun });
      return checked.ok ? { ok: true, url: checked.url.toString() } : checked;
    },
    newSecret: newWebhookSecret,
    queue,
    deliveries: deliveryRecords({ store, clock: core.clock }),
  });
}
