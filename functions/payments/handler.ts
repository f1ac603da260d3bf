import { createHttpHandler } from '../../shared/http/middleware.js';
import { PAYMENTS } from '../../shared/operations/payments.js';
import { core } from '../../shared/runtime/core.js';
import { merchantService, paymentService } from '../../shared/runtime/services.js';

export const handler = createHttpHandler(PAYMENTS, core, () => ({ payments: paymentService(core()), merchants: merchantService(core()) }));
