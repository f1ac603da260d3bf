import { eventsOf } from '../events/event-declaration.js';
import type * as views from './card-view.js';

/** The wallet that funds the card (credited by a refund). */
const cardWallet = (data: { walletId: string }) => [data.walletId];

/** The cards' events (docs/architecture.md "Events"): payload view, when each is committed, the wallets it concerns. */
export const CARD_EVENTS = eventsOf<typeof views>()({
  'card.created': { payload: 'cardView', occasion: 'A card was issued.', wallets: cardWallet },
  'card.updated': {
    payload: 'cardView',
    occasion: "A card's limits changed, or it was frozen or unfrozen.",
    wallets: cardWallet,
  },
  'card.cancelled': {
    payload: 'cardView',
    occasion: 'A card was cancelled (`DELETE /v1/cards/{id}`, or a single-use card after its capture).',
    wallets: cardWallet,
  },
  'card.authorization.approved': {
    payload: 'authorizationView',
    occasion: "The card network's authorization request was approved: the amount is held.",
    wallets: cardWallet,
  },
  'card.authorization.declined': {
    payload: 'authorizationView',
    occasion: "The card network's authorization request was declined (why is in `reason`).",
    wallets: cardWallet,
  },
  'card.authorization.captured': {
    payload: 'authorizationView',
    occasion: 'An approved authorization was captured (paid); any rest of the hold was released.',
    wallets: cardWallet,
  },
  'card.authorization.reversed': {
    payload: 'authorizationView',
    occasion: 'An approved authorization was reversed or expired: its hold was released.',
    wallets: cardWallet,
  },
  'card.refund.created': {
    payload: 'cardRefundView',
    occasion: "A merchant refunded part or all of a captured authorization into the card's wallet.",
    wallets: cardWallet,
  },
});
