import type { Environment } from '../tenancy.js';
import type { OutboxEvent, Page, PageRequest } from '../types.js';

export interface EventQuery {
  type?: string | undefined;
  /** Exclusive ISO 8601 bound. */
  createdAfter?: string | undefined;
  /** Set for wallet-scoped keys: only the events of that wallet. */
  walletId?: string | undefined;
}

/** A page of the visible-order feed: the events, the position after them, whether more are there now. */
export interface FeedPage {
  items: OutboxEvent[];
  /** Opaque: where the next poll starts (the last event's position, the last position read when the read bound was reached, or `until` when caught up). */
  position: string;
  /** More events may be there now (a full page, or the read bound reached: the page may be short, even empty). */
  more: boolean;
}

export interface EventStore {
  getEvent(eventId: string): Promise<OutboxEvent | undefined>;
  listEvents(
    organizationId: string,
    environment: Environment,
    query: EventQuery,
    page: PageRequest,
  ): Promise<Page<OutboxEvent>>;
  /**
   * Events in the order they became visible (their `visibleAt` stamp), oldest first: after
   * `after` (a position this method answered; absent: from `query.createdAfter`, or the oldest
   * kept), stamped no later than `until` (an ISO 8601 time).
   */
  listVisibleEvents(
    organizationId: string,
    environment: Environment,
    query: EventQuery,
    range: { after?: string | undefined; until: string },
    limit: number,
  ): Promise<FeedPage>;
}

/** Where published events are kept for the events API (30 days): written once per id. */
export interface EventArchive {
  /** Stores each event unless present; answers the ones stored now. */
  storeEvents(events: OutboxEvent[]): Promise<OutboxEvent[]>;
}
