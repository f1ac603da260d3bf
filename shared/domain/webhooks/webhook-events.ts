import { eventsOf, noWallet } from '../events/event-declaration.js';
import type * as views from './webhook-view.js';

/** The webhooks' events (docs/architecture.md "Events"): payload view, when each is committed, the wallets it concerns (none: it goes to one webhook, never to the events API). */
export const WEBHOOK_EVENTS = eventsOf<typeof views>()({
  'webhook.test': {
    payload: 'webhookTestEventView',
    occasion: 'Sent on request (`POST /v1/webhooks/{id}/test`) to that one webhook only; never in the events API.',
    wallets: noWallet,
  },
});
