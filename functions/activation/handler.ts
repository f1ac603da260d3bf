import { createHttpHandler } from '../../shared/http/middleware.js';
import { ACTIVATION } from '../../shared/operations/activation.js';
import { core } from '../../shared/runtime/core.js';
import { activationService } from '../../shared/runtime/services/activation.js';

export const handler = createHttpHandler(ACTIVATION, core, () => ({ activation: activationService(core()) }));
