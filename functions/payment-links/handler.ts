import { createHttpHandler } from '../../shared/http/middleware.js';
import { PAYMENT_LINKS } from '../../shared/operations/payment-links.js';
import { core } from '../../shared/runtime/core.js';
import { paymentLinkService } from '../../shared/runtime/services/payment-links.js';

export const handler = createHttpHandler(PAYMENT_LINKS, core, () => ({ paymentLinks: paymentLinkService(core()) }));
