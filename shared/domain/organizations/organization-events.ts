import { eventsOf, noWallet } from '../events/event-declaration.js';
import type * as views from './organization-event-views.js';

/** The organizations' events (docs/architecture.md "Events"): payload view, when each is committed, the wallets it concerns (none: organization-wide keys see it). */
export const ORGANIZATION_EVENTS = eventsOf<typeof views>()({
  'organization.created': {
    payload: 'organizationCreatedEventView',
    occasion: 'An organization was created.',
    wallets: noWallet,
  },
});
