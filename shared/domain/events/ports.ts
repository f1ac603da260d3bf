import type { Environment } from '../tenancy.js';
import type { OutboxEvent, Page, PageRequest } from '../types.js';

export interface EventQuery {
  type?: string | undefined;
  /** Exclusive ISO 8601 bound. */
  createdAfter?: string | undefined;
  /** Set for wallet-scoped keys: only the events of that wallet. */
  walletId?: string | undefined;
}

export interface EventStore {
  getEvent(eventId: string): Promise<OutboxEvent | undefined>;
  listEvents(organizationId: string, environment: Environment, query: EventQuery, page: PageRequest): Promise<Page<OutboxEvent>>;
}

/** Where published events are kept for the events API (30 days): written once per id. */
export interface EventArchive {
  /** Stores each event unless present; answers the ones stored now. */
  storeEvents(events: OutboxEvent[]): Promise<OutboxEvent[]>;
}
