import * as z from 'zod/mini';
import { EMITTED_EVENT_NAMES, isReservedEventName } from '../domain/event-names.js';

/** A reserved name is refused by name; any other wrong value keeps zod's message (which lists the names). */
const notEmittedYet = (issue: { input?: unknown }): string | undefined =>
  isReservedEventName(issue.input) ? `${issue.input} is a reserved event name, not emitted yet` : undefined;

/** An event name the service emits (`GET /v1/events?type=`); a reserved name answers 400 "not emitted yet". */
export const emittedEventName = () => z.enum(EMITTED_EVENT_NAMES, { error: notEmittedYet });

/** One entry of a webhook's `events`: an emitted event name or `*`; a reserved name answers 400 "not emitted yet". */
export const eventFilterEntry = () => z.enum([...EMITTED_EVENT_NAMES, '*'], { error: notEmittedYet });
