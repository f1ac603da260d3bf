import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { createJournalProjector, type EventPublisher } from '../domain/ledger/journal-projector.js';
import { archivingPublisher, eventBridgePublisher, inProcessPublisher } from '../events/publishers.js';
import { createEventStore } from '../persistence/event-store.js';
import { createJournalStreamConsumer } from '../persistence/journal-stream.js';
import { createProjectionStore } from '../persistence/projection-store.js';
import { traced } from '../observability/tracer.js';
import type { Core } from './core.js';

/** The service's event bus: EventBridge in AWS (EVENT_BUS_NAME), the in-process bus locally. */
export function eventBus(core: Core): EventPublisher {
  const { config } = core;
  return config.eventBusName
    ? eventBridgePublisher(traced(new EventBridgeClient({ region: config.region })), config.eventBusName)
    : inProcessPublisher;
}

/**
 * The journal's projector as the table stream's consumer (functions/journal-projector): journal
 * records and outbox items become events, kept for the events API and put on the bus.
 */
export function journalProjector(core: Core, bus: EventPublisher = eventBus(core)) {
  const publisher = archivingPublisher(createEventStore(core.table, { clock: core.clock }), bus);
  return createJournalStreamConsumer(
    createJournalProjector({ store: createProjectionStore(core.table), publisher }),
    publisher,
  );
}
