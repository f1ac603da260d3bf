import { createHttpHandler } from '../../shared/http/middleware.js';
import { TRANSFERS } from '../../shared/operations/transfers.js';
import { core } from '../../shared/runtime/core.js';
import { transferService } from '../../shared/runtime/services/transfers.js';

export const handler = createHttpHandler(TRANSFERS, core, () => ({ transfers: transferService(core()) }));
