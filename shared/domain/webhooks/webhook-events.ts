import { noWallet, type EventDeclarations, type EventWallets } from '../events/event-declaration.js';
import { id, lazy, view } from '../views.js';

/** The webhooks' events (docs/architecture.md "Events"): payload and when each is committed. */
export const WEBHOOK_EVENTS = {
  'webhook.test': {
    payload: /* @__PURE__ */ lazy(() => view({ webhookId: id('webhook', 'The webhook tested.') }, 'A test event, sent by POST /v1/webhooks/{id}/test to that webhook only.', { webhookId: 'whk_Tq8Lm2Zp4Rw9Xb1KLm2Zp4Rw' })),
    occasion: 'Sent on request (`POST /v1/webhooks/{id}/test`) to that one webhook only; never in the events API.',
  },
} as const satisfies EventDeclarations;

/** The wallets each webhook event concerns: none (it goes to one webhook, never to the events API). */
export const WEBHOOK_EVENT_WALLETS = {
  'webhook.test': noWallet,
} as const satisfies EventWallets<typeof WEBHOOK_EVENTS>;
