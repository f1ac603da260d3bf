import { eventsOf } from '../events/event-declaration.js';
import type * as views from './payment-link-view.js';

/** The wallet that funds the link (never the claimant's: its organization gets no event of the link). */
const linkWallet = (data: { walletId: string }) => [data.walletId];

/** The payment links' events (interface-spec 3.4 and 6): payload the owner's view, concerning the link's wallet. */
export const PAYMENT_LINK_EVENTS = eventsOf<typeof views>()({
  'payment_link.created': {
    payload: 'paymentLinkView',
    occasion:
      'A payment link was created (ACTIVE, or PENDING_APPROVAL when a policy asked for approval): its hold is taken.',
    wallets: linkWallet,
  },
  'payment_link.claimed': {
    payload: 'paymentLinkView',
    occasion:
      'A payment link was claimed: to a wallet (committed with `payment_link.settled`), or to a bank account or USDC address (CLAIMED: a transfer is on its way).',
    wallets: linkWallet,
  },
  'payment_link.settled': {
    payload: 'paymentLinkView',
    occasion:
      'The claimant has the money (SETTLED): a wallet claim at once, an ach/usdc claim when its transfer completed.',
    wallets: linkWallet,
  },
  'payment_link.expired': {
    payload: 'paymentLinkView',
    occasion: 'A payment link passed its `expiresAt` unclaimed (EXPIRED): its hold was released.',
    wallets: linkWallet,
  },
  'payment_link.cancelled': {
    payload: 'paymentLinkView',
    occasion:
      'A payment link was cancelled by its owner, or its approval was refused (CANCELLED): its hold was released.',
    wallets: linkWallet,
  },
});
