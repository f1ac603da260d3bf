import { eventsOf } from '../events/event-declaration.js';
import type * as views from './wallet-event-views.js';

/** The wallets' events (docs/architecture.md "Events"): payload view, when each is committed, the wallets it concerns (the wallet created, or funded). */
export const WALLET_EVENTS = eventsOf<typeof views>()({
  'wallet.created': {
    payload: 'walletCreatedEventView',
    occasion: 'A wallet was created (`POST /v1/wallets`).',
    wallets: (wallet) => [wallet.id],
  },
  'wallet.funded': {
    payload: 'walletFundedEventView',
    occasion: 'Test money was added to a sandbox wallet (`POST /v1/wallets/{id}/fund`).',
    wallets: (funding) => [funding.walletId],
  },
});
