import { createHttpHandler } from '../../shared/http/middleware.js';
import { WEBHOOKS } from '../../shared/operations/webhooks.js';
import { core } from '../../shared/runtime/core.js';
import { webhookService } from '../../shared/runtime/services/webhooks.js';

export const handler = createHttpHandler(WEBHOOKS, core, () => ({ webhooks: webhookService(core()) }));
