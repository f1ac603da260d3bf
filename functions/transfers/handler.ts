import { createHttpHandler } from '../../shared/http/middleware.js';
import { TRANSFERS } from '../../shared/operations/transfers.js';
import { core } from '../../shared/runtime/core.js';
import { transferClientService } from '../../shared/runtime/services/transfers.js';

export const handler = createHttpHandler(TRANSFERS, core, () => ({ transfers: transferClientService(core()) }));
