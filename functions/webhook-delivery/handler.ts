import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { deliveryMessageOf } from '../../shared/events/delivery-queue.js';
import { core } from '../../shared/runtime/core.js';
import { correlationOfMessage } from '../../shared/events/delivery-queue.js';
import { observedWorker } from '../../shared/observability/invocation.js';
import { log } from '../../shared/observability/log.js';
import { withCorrelation } from '../../shared/observability/scope.js';
import { WEBHOOK_DELIVERY_QUEUE } from '../../shared/workers.js';
import { deliveryService } from '../../shared/runtime/services/webhooks.js';

let service: ReturnType<typeof deliveryService> | undefined;

/**
 * Queue worker, declared in shared/workers.ts (SQS in AWS; the in-process queue of
 * bin/local/workers.ts locally): fans events out to webhooks and makes delivery attempts. A message
 * that fails is reported in the partial batch response and received again, up to the DLQ.
 */
export const handler = observedWorker(WEBHOOK_DELIVERY_QUEUE, async (event: SQSEvent): Promise<SQSBatchResponse> => {
  service ??= deliveryService(core());
  const failures = await Promise.all(
    event.Records.map(async (record) => {
      try {
        const message = deliveryMessageOf(record.body);
        if (message) await withCorrelation(correlationOfMessage(message), () => service!.handle(message));
        return undefined;
      } catch (error) {
        log.error('webhook delivery message failed; it is received again', error, { messageId: record.messageId });
        return { itemIdentifier: record.messageId };
      }
    }),
  );
  return { batchItemFailures: failures.filter((failure) => failure !== undefined) };
});
