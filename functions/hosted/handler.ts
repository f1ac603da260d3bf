import { createHostedHandler } from '../../shared/hosted/edge.js';
import { CUSTOMERS } from '../../shared/operations/customers.js';
import { INVOICES } from '../../shared/operations/invoices.js';
import { PAYMENT_LINKS } from '../../shared/operations/payment-links.js';
import { core } from '../../shared/runtime/core.js';
import { customerService } from '../../shared/runtime/services/customers.js';
import { invoiceCollectionService } from '../../shared/runtime/services/invoice-collection.js';
import { invoiceService } from '../../shared/runtime/services/invoices.js';
import { paymentLinkService } from '../../shared/runtime/services/payment-links.js';

/**
 * The hosted pages (`ANY /hosted/{proxy+}`): HTML for people, over the public operations of the
 * groups named in HOSTED_FUNCTION.groups (the pages find them by method and path, and call them
 * through `invoke` with those groups' services, built on first use).
 */
export const handler = createHostedHandler(core, () => {
  let services: object | undefined;
  return {
    operations: [...CUSTOMERS.operations, ...INVOICES.operations, ...PAYMENT_LINKS.operations],
    services: () =>
      (services ??= {
        customers: customerService(core()),
        invoices: invoiceService(core()),
        invoiceCollection: invoiceCollectionService(core()),
        paymentLinks: paymentLinkService(core()),
      }),
    cursors: () => core().cursors(),
  };
});
