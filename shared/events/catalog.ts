import * as z from 'zod/mini';
import { EVENT_NAMES, type EventName } from '../domain/event-names.js';
import { EVENT_PAYLOADS, type EmittedEvent } from '../domain/event-payloads.js';

/**
 * The event catalog: every event name with its payload schema. Webhooks, the events API and the
 * docs read it. An event the service does not emit yet (its area is not built) has no schema.
 */
export interface CatalogEvent {
  name: EventName;
  /** The schema of `data` (public views only), or null until the event is emitted. */
  payload: z.ZodMiniType | null;
}

const isEmitted = (name: EventName): name is EmittedEvent => name in EVENT_PAYLOADS;

export const EVENT_CATALOG: readonly CatalogEvent[] = EVENT_NAMES.map((name) => ({ name, payload: isEmitted(name) ? EVENT_PAYLOADS[name] : null }));

export const EMITTED_EVENTS: readonly EmittedEvent[] = EVENT_NAMES.filter(isEmitted);

/** The JSON Schema of an event's payload (for webhook docs). */
export function payloadJsonSchema(name: EmittedEvent): Record<string, unknown> {
  return z.toJSONSchema(EVENT_PAYLOADS[name], { target: 'draft-2020-12', io: 'output', unrepresentable: 'any' }) as Record<string, unknown>;
}
