import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { DeliveryMessage, DeliveryQueue } from '../domain/webhooks/ports.js';
import { localTransport } from './local-transport.js';

/** SQS's longest message delay: a later attempt is sent again when it comes up, until due. */
export const MAX_SQS_DELAY_S = 900;

export function sqsDeliveryQueue(
  client: Pick<SQSClient, 'send'>,
  queueUrl: string,
  deadLetterUrl: string,
): DeliveryQueue {
  return {
    async send(message, delayMs) {
      const delay = Math.min(MAX_SQS_DELAY_S, Math.max(0, Math.ceil(delayMs / 1000)));
      await client.send(
        new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(message), DelaySeconds: delay }),
      );
    },
    async deadLetter(message) {
      await client.send(new SendMessageCommand({ QueueUrl: deadLetterUrl, MessageBody: JSON.stringify(message) }));
    },
  };
}

export function localDeliveryQueue(name: string): DeliveryQueue {
  const queue = localTransport.queue(name);
  return {
    async send(message: DeliveryMessage, delayMs: number) {
      queue.send(JSON.stringify(message), Math.max(0, delayMs));
    },
    async deadLetter(message: DeliveryMessage) {
      queue.deadLetter(JSON.stringify(message));
    },
  };
}

/** The correlation id a message carries (its event's causing request), if any. */
export function correlationOfMessage(message: DeliveryMessage): string | undefined {
  return message.kind === 'event' ? message.event.correlationId : message.correlationId;
}

/** A queue message body: ours, or an event in the envelope the bus rule gives it. */
export function deliveryMessageOf(body: string): DeliveryMessage | undefined {
  const parsed = JSON.parse(body) as Record<string, unknown>;
  if (parsed && typeof parsed === 'object' && 'detail-type' in parsed && parsed.detail)
    return { kind: 'event', event: parsed.detail as never };
  if (parsed.kind === 'event' || parsed.kind === 'attempt') return parsed as unknown as DeliveryMessage;
  return undefined;
}
