import { eventsOf } from '../events/event-declaration.js';
import type * as views from './customer-view.js';

/** The customer's wallet (agent keys of that wallet see the event); none for an organization's customer. */
const customerWallet = (data: { walletId: string | null }) => [data.walletId];

/** The customers' events (docs/architecture.md "Events"): payload view, when each is committed, the wallets it concerns. */
export const CUSTOMER_EVENTS = eventsOf<typeof views>()({
  'customer.created': { payload: 'customerView', occasion: 'A customer was created.', wallets: customerWallet },
  'customer.updated': {
    payload: 'customerView',
    occasion: "A customer's name, phone, company name or metadata changed.",
    wallets: customerWallet,
  },
  'customer.payment_method.saved': {
    payload: 'paymentMethodView',
    occasion: 'A payment method was saved for a customer (setup page or test helper); the first one is the default.',
    wallets: customerWallet,
  },
  'customer.payment_method.updated': {
    payload: 'paymentMethodView',
    occasion: 'A customer replaced the default payment method through an update link (the payload is the new one).',
    wallets: customerWallet,
  },
  'customer.payment_method.removed': {
    payload: 'paymentMethodView',
    occasion:
      'A payment method was removed (DELETE); if it was the default, the newest remaining one became the default.',
    wallets: customerWallet,
  },
});
