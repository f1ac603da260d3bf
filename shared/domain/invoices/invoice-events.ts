import { eventsOf } from '../events/event-declaration.js';
import type * as views from './invoice-view.js';

/** The wallet an invoice pays into. */
const invoiceWallet = (data: { walletId: string }) => [data.walletId];

/** The invoices' events (interface-spec 3.5 and 6): payload the invoice view, concerning the invoice's wallet. */
export const INVOICE_EVENTS = eventsOf<typeof views>()({
  'invoice.paid': {
    payload: 'invoiceView',
    occasion: 'A payment of the invoice succeeded (PAID): the wallet was credited the total minus the fees.',
    wallets: invoiceWallet,
  },
});
