import { eventsOf } from '../events/event-declaration.js';
import type * as views from './invoice-view.js';

/** The wallet an invoice pays into. */
const invoiceWallet = (data: { walletId: string }) => [data.walletId];

/** The invoices' events (interface-spec 3.5 and 6): payload the invoice view, concerning the invoice's wallet. */
export const INVOICE_EVENTS = eventsOf<typeof views>()({
  'invoice.created': { payload: 'invoiceView', occasion: 'An invoice was created (DRAFT).', wallets: invoiceWallet },
  'invoice.finalized': {
    payload: 'invoiceView',
    occasion: 'An invoice was finalized: numbered, with its slug and `hostedUrl` (FINALIZED).',
    wallets: invoiceWallet,
  },
  'invoice.paid': {
    payload: 'invoiceView',
    occasion: 'A payment of the invoice succeeded (PAID): the wallet was credited the total minus the fees.',
    wallets: invoiceWallet,
  },
  'invoice.payment_failed': {
    payload: 'invoiceView',
    occasion: 'A payment of the invoice was declined or its bank debit failed; the invoice stays FINALIZED.',
    wallets: invoiceWallet,
  },
  'invoice.voided': {
    payload: 'invoiceView',
    occasion: 'A finalized, unpaid invoice was voided.',
    wallets: invoiceWallet,
  },
  'invoice.refunded': {
    payload: 'invoiceView',
    occasion: 'A paid invoice was refunded (REFUNDED): the wallet was debited the total.',
    wallets: invoiceWallet,
  },
});
