import { createHttpHandler } from '../../shared/http/middleware.js';
import { EVENTS } from '../../shared/operations/events.js';
import { core } from '../../shared/runtime/core.js';
import { eventService } from '../../shared/runtime/services/events.js';

export const handler = createHttpHandler(EVENTS, core, () => ({ events: eventService(core()) }));
