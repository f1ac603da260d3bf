import { EventBridgeClient, PutEventsCommand, type PutEventsRequestEntry } from '@aws-sdk/client-eventbridge';
import type { EventArchive } from '../domain/events/ports.js';
import type { EventPublisher } from '../domain/ledger/journal-projector.js';
import type { OutboxEvent } from '../domain/types.js';
import { EVENT_SOURCE, localTransport } from './local-transport.js';

/** PutEvents takes at most 10 entries a call. */
const PUT_EVENTS_BATCH = 10;
/** Attempts of the entries EventBridge failed (throttling, internal errors) before the batch fails. */
export const PUT_EVENTS_ATTEMPTS = 3;

export class PartialPublishError extends Error {
  constructor(readonly failed: { eventId: string; code: string }[]) {
    super(`EventBridge refused ${failed.length} event(s): ${failed.map((f) => `${f.eventId} ${f.code}`).join(', ')}`);
  }
}

/**
 * The EventBridge adapter: one entry per event (source `allowance`, detail-type the event name,
 * detail the event with its id), 10 per call; entries reported failed are sent again, and still
 * failing they fail the publish (the stream batch is then retried: the same ids are published
 * again, which delivery de-duplicates).
 */
export function eventBridgePublisher(
  client: Pick<EventBridgeClient, 'send'>,
  busName: string,
  sleep = (ms: number) => new Promise((r) => setTimeout(r, ms)),
): EventPublisher & { calls: number } {
  const publisher = {
    calls: 0,
    async publish(events: OutboxEvent[]) {
      for (let start = 0; start < events.length; start += PUT_EVENTS_BATCH) {
        let pending = events.slice(start, start + PUT_EVENTS_BATCH);
        let failed: { eventId: string; code: string }[] = [];
        for (let attempt = 1; attempt <= PUT_EVENTS_ATTEMPTS && pending.length > 0; attempt += 1) {
          if (attempt > 1) await sleep(50 * 2 ** attempt);
          publisher.calls += 1;
          const entries: PutEventsRequestEntry[] = pending.map((event) => ({
            EventBusName: busName,
            Source: EVENT_SOURCE,
            DetailType: event.type,
            Detail: JSON.stringify(event),
            Time: new Date(event.createdAt),
          }));
          const output = await client.send(new PutEventsCommand({ Entries: entries }));
          const results = output.Entries ?? [];
          failed = pending.flatMap((event, i) =>
            results[i]?.ErrorCode ? [{ eventId: event.id, code: results[i]!.ErrorCode! }] : [],
          );
          pending = pending.filter((_, i) => results[i]?.ErrorCode);
          if ((output.FailedEntryCount ?? 0) === 0) pending = [];
        }
        if (pending.length > 0) throw new PartialPublishError(failed);
      }
    },
  };
  return publisher;
}

/** The local run's bus: every event to the queues whose rule takes it (in-process). */
export const inProcessPublisher: EventPublisher = {
  async publish(events) {
    localTransport.publish(events);
  },
};

/** Publishing as the projector does it: kept for the events API (30 days), then put on the bus. */
export function archivingPublisher(archive: EventArchive, bus: EventPublisher): EventPublisher {
  return {
    async publish(events) {
      if (events.length === 0) return;
      await archive.storeEvents(events.filter((event) => event.type !== 'webhook.test'));
      // Always published, stored now or before: a publish that failed after the store is retried
      // with the batch; deliveries are created once per (webhook, event), so nothing is sent twice.
      await bus.publish(events);
    },
  };
}
