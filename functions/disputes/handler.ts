import { createHttpHandler } from '../../shared/http/middleware.js';
import { DISPUTES } from '../../shared/operations/disputes.js';
import { core } from '../../shared/runtime/core.js';
import { disputeService } from '../../shared/runtime/services/disputes.js';

export const handler = createHttpHandler(DISPUTES, core, () => ({ disputes: disputeService(core()) }));
