import * as z from 'zod/mini';
import {
  EMITTED_EVENT_NAMES,
  EVENT_DECLARATIONS,
  EVENT_NAMES,
  RESERVED_EVENT_NAMES,
  type EmittedEventName,
  type EventName,
  type ReservedEventName,
} from '../domain/event-names.js';
import { viewOf } from '../domain/view-registry.js';

/**
 * The event catalog: every event name with its payload schema and when it is emitted, as the areas
 * declare them (joined in shared/domain/event-names.ts). The tests read it.
 * A reserved name (its area is not built) has neither.
 */
export interface CatalogEvent {
  name: EventName;
  /** The schema of `data` (public views only), or null for a reserved name. */
  payload: z.ZodMiniType | null;
  /** When it is committed, or null for a reserved name. */
  occasion: string | null;
}

const isEmitted = (name: EventName): name is EmittedEventName => name in EVENT_DECLARATIONS;

export const EVENT_CATALOG: readonly CatalogEvent[] = EVENT_NAMES.map((name) =>
  isEmitted(name)
    ? { name, payload: viewOf(EVENT_DECLARATIONS[name].payload), occasion: EVENT_DECLARATIONS[name].occasion }
    : { name, payload: null, occasion: null },
);

export const EMITTED_EVENTS: readonly EmittedEventName[] = EMITTED_EVENT_NAMES;

/** Names the spec gives that no code emits yet: refused by webhook filters and `GET /v1/events?type=`. */
export const RESERVED_EVENTS: readonly ReservedEventName[] = RESERVED_EVENT_NAMES;

/** The JSON Schema of an event's payload (for webhook docs). */
export function payloadJsonSchema(name: EmittedEventName): Record<string, unknown> {
  return z.toJSONSchema(viewOf(EVENT_DECLARATIONS[name].payload), {
    target: 'draft-2020-12',
    io: 'output',
    unrepresentable: 'any',
  }) as Record<string, unknown>;
}
