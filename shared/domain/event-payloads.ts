import type * as z from 'zod/mini';
import { AGENT_EVENTS } from './agents/agent-events.js';
import { APPROVAL_EVENTS } from './approvals/approval-events.js';
import { CARD_EVENTS } from './cards/card-events.js';
import type { EmittedEventName } from './event-names.js';
import type { EventDeclaration } from './events/event-declaration.js';
import { ORGANIZATION_EVENTS } from './organizations/organization-events.js';
import { PAYMENT_EVENTS } from './payments/payment-events.js';
import { TRANSFER_EVENTS } from './transfers/transfer-events.js';
import { WALLET_EVENTS } from './wallets/wallet-events.js';
import { WEBHOOK_EVENTS } from './webhooks/webhook-events.js';

/**
 * Every emitted event's payload (`data`, public views only: an event never carries an internal
 * record) and when it is committed, as its area declares them (`<area>-events.ts`), one line per
 * area in the order of event-names.ts. `eventChange` accepts nothing but the declared payload type
 * of its event, so a service can not put internal fields on the bus. Read by OpenAPI and the events
 * table of docs/api.md; function bundles import this module for its types only.
 */
export const EVENT_DECLARATIONS = {
  ...TRANSFER_EVENTS,
  ...CARD_EVENTS,
  ...APPROVAL_EVENTS,
  ...PAYMENT_EVENTS,
  ...AGENT_EVENTS,
  ...WALLET_EVENTS,
  ...ORGANIZATION_EVENTS,
  ...WEBHOOK_EVENTS,
} as const satisfies Record<EmittedEventName, EventDeclaration>;

export type EmittedEvent = keyof typeof EVENT_DECLARATIONS;
export type EventData<N extends EmittedEvent> = z.output<(typeof EVENT_DECLARATIONS)[N]['payload']>;

type Never<T extends never> = T;
/** An event declared here but not in event-names.ts (an area's line missing there) fails to compile here. */
export type DeclaredButNotNamed = Never<Exclude<EmittedEvent, EmittedEventName>>;
