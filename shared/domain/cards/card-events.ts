import type { EventDeclarations, EventWallets } from '../events/event-declaration.js';
import { authorizationView, cardRefundView, cardView } from './card-view.js';

/** The cards' events (docs/architecture.md "Events"): payload and when each is committed. */
export const CARD_EVENTS = {
  'card.created': { payload: cardView, occasion: 'A card was issued.' },
  'card.updated': { payload: cardView, occasion: 'A card\'s limits changed, or it was frozen or unfrozen.' },
  'card.cancelled': { payload: cardView, occasion: 'A card was cancelled (`DELETE /v1/cards/{id}`, or a single-use card after its capture).' },
  'card.authorization.approved': { payload: authorizationView, occasion: 'The card network\'s authorization request was approved: the amount is held.' },
  'card.authorization.declined': { payload: authorizationView, occasion: 'The card network\'s authorization request was declined (why is in `reason`).' },
  'card.authorization.captured': { payload: authorizationView, occasion: 'An approved authorization was captured (paid); any rest of the hold was released.' },
  'card.authorization.reversed': { payload: authorizationView, occasion: 'An approved authorization was reversed or expired: its hold was released.' },
  'card.refund.created': { payload: cardRefundView, occasion: 'A merchant refunded part or all of a captured authorization into the card\'s wallet.' },
} as const satisfies EventDeclarations;

/** The wallet that funds the card (credited by a refund). */
const cardWallet = (data: { walletId: string }) => [data.walletId];

/** The wallets each card event concerns. */
export const CARD_EVENT_WALLETS = {
  'card.created': cardWallet,
  'card.updated': cardWallet,
  'card.cancelled': cardWallet,
  'card.authorization.approved': cardWallet,
  'card.authorization.declined': cardWallet,
  'card.authorization.captured': cardWallet,
  'card.authorization.reversed': cardWallet,
  'card.refund.created': cardWallet,
} as const satisfies EventWallets<typeof CARD_EVENTS>;
