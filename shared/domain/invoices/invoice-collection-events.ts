import { eventsOf } from '../events/event-declaration.js';
import type * as collectionViews from './invoice-collection-view.js';
import type * as invoiceViews from './invoice-view.js';

/** The events of collecting invoices (interface-spec 6): retries given up, USDC that matched nothing. */
export const INVOICE_COLLECTION_EVENTS = eventsOf<typeof invoiceViews & typeof collectionViews>()({
  'invoice.uncollectible': {
    payload: 'invoiceView',
    occasion: "A charged invoice's third retry failed (7 days after its first failure): UNCOLLECTIBLE.",
    wallets: (data) => [data.walletId],
  },
  'invoice.usdc_unmatched': {
    payload: 'usdcReceiptView',
    occasion:
      'A USDC transfer arrived at an address of no open invoice, or not for the exact amount due: nothing was credited (an UNMATCHED receipt).',
    wallets: (data) => [data.walletId],
  },
});
