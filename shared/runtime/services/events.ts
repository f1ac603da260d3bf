import { createEventService, type EventService } from '../../domain/events/event-service.js';
import type { EventStore } from '../../domain/events/ports.js';
import { createEventStore } from '../../persistence/event-store.js';
import type { Core } from '../core.js';

export function eventService(
  core: Core,
  { store = createEventStore(core.table, { clock: core.clock }) }: { store?: EventStore } = {},
): EventService {
  return createEventService({ store, clock: core.clock });
}
