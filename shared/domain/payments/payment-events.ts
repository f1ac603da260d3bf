import { eventsOf, noWallet } from '../events/event-declaration.js';
import type * as views from './payment-view.js';

/** Both sides of a payment: the paying wallet and the payee (a system account `acc_...` is no wallet). */
const bothSides = (data: { from: string; to: string }) => [data.from, data.to];

/** The payments' events (docs/architecture.md "Events"): payload view, when each is committed, the wallets it concerns. */
export const PAYMENT_EVENTS = eventsOf<typeof views>()({
  'payment.posted': {
    payload: 'paymentView',
    occasion: 'A payment posted: the amount moved from the paying wallet to the payee.',
    wallets: bothSides,
  },
  // Its payload names no wallet (only the transaction and its approval): organization-wide keys see it.
  'payment.failed': {
    payload: 'paymentFailedEventView',
    occasion: 'A queued payment was approved but could not post (e.g. insufficient funds by then).',
    wallets: noWallet,
  },
  'payment.reversed': {
    payload: 'paymentView',
    occasion:
      'A posted payment was reversed (`POST /v1/payments/{id}/reverse`); `data` is the reversal, the mirror payment (`reversalOf` names the original).',
    wallets: bothSides,
  },
});
