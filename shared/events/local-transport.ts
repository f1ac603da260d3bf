import { EVENT_SOURCE_NAME } from '../domain/event-names.js';
import type { OutboxEvent } from '../domain/types.js';

/**
 * The in-process stand-in of the event bus and the queues for the local run (`npm start`, the e2e
 * server): bin/local/workers.ts registers each `queue` worker here; the publisher and the queue
 * adapters of the handlers send here when no AWS resource is configured. Process-wide, as the
 * handlers' modules are. Nothing registered (unit tests): messages are counted and dropped.
 */
export interface LocalQueue {
  /** Delivers an SQS message body to the queue's worker after `delayMs`. */
  send(body: string, delayMs: number): void;
  /** Keeps a message in the queue's dead-letter list. */
  deadLetter(body: string): void;
}

interface Registry {
  queues: Map<string, LocalQueue>;
  /** Queues whose rule receives every event of the bus. */
  busTargets: Set<string>;
  dropped: number;
}

const KEY = Symbol.for('allowance.local-transport');
const registry: Registry = ((globalThis as Record<symbol, unknown>)[KEY] as Registry | undefined) ?? {
  queues: new Map(),
  busTargets: new Set(),
  dropped: 0,
};
(globalThis as Record<symbol, unknown>)[KEY] = registry;

export const localTransport = {
  registerQueue(name: string, queue: LocalQueue, options: { busTarget: boolean }): () => void {
    registry.queues.set(name, queue);
    if (options.busTarget) registry.busTargets.add(name);
    return () => {
      if (registry.queues.get(name) === queue) registry.queues.delete(name);
      registry.busTargets.delete(name);
    };
  },
  queue(name: string): LocalQueue {
    return {
      send: (body, delayMs) =>
        registry.queues.get(name) ? registry.queues.get(name)!.send(body, delayMs) : void (registry.dropped += 1),
      deadLetter: (body) =>
        registry.queues.get(name) ? registry.queues.get(name)!.deadLetter(body) : void (registry.dropped += 1),
    };
  },
  /** What EventBridge does with PutEvents: each event, in its envelope, to every rule's queue. */
  publish(events: OutboxEvent[]): void {
    for (const event of events) {
      const body = JSON.stringify(busEnvelope(event));
      for (const name of registry.busTargets) registry.queues.get(name)?.send(body, 0);
    }
  },
  get dropped() {
    return registry.dropped;
  },
};

export const EVENT_SOURCE = EVENT_SOURCE_NAME;

/** An event as an EventBridge rule hands it to its SQS target (the message body). */
export function busEnvelope(event: OutboxEvent) {
  return {
    version: '0',
    id: event.id,
    'detail-type': event.type,
    source: EVENT_SOURCE,
    account: '000000000000',
    time: event.createdAt,
    region: 'local',
    resources: [],
    detail: event,
  };
}
