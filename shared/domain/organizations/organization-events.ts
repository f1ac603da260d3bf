import { noWallet, type EventDeclarations, type EventWallets } from '../events/event-declaration.js';
import { id, lazy, text, view } from '../views.js';

/** The organizations' events (docs/architecture.md "Events"): payload and when each is committed. */
export const ORGANIZATION_EVENTS = {
  'organization.created': {
    payload: /* @__PURE__ */ lazy(() => view({ id: id('organization', 'The new organization.'), name: text('Its name.') }, 'An organization was created.', { id: 'org_ipK5yfL5D6aVwx00', name: 'Acme' })),
    occasion: 'An organization was created.',
  },
} as const satisfies EventDeclarations;

/** The wallets each organization event concerns: none (organization-wide keys see it). */
export const ORGANIZATION_EVENT_WALLETS = {
  'organization.created': noWallet,
} as const satisfies EventWallets<typeof ORGANIZATION_EVENTS>;
