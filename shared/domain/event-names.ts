import { AGENT_EVENTS } from './agents/agent-events.js';
import { APPROVAL_EVENTS } from './approvals/approval-events.js';
import { CARD_EVENTS } from './cards/card-events.js';
import { CUSTOMER_EVENTS } from './customers/customer-events.js';
import { DISPUTE_EVENTS } from './disputes/dispute-events.js';
import { INVOICE_EVENTS } from './invoices/invoice-events.js';
import { INVOICE_COLLECTION_EVENTS } from './invoices/invoice-collection-events.js';
import { ORGANIZATION_EVENTS } from './organizations/organization-events.js';
import { PAYMENT_LINK_EVENTS } from './payment-links/payment-link-events.js';
import { PAYMENT_EVENTS } from './payments/payment-events.js';
import { TRANSFER_EVENTS } from './transfers/transfer-events.js';
import { WALLET_EVENTS } from './wallets/wallet-events.js';
import { WEBHOOK_EVENTS } from './webhooks/webhook-events.js';

/**
 * Every event name of the API (interface-spec section 6 and decisions.md section 8), in two lists:
 * the events the service emits today, as their areas declare them (each in its own
 * `<area>-events.ts`: payload view by name, when it is committed, the wallets it concerns; one line
 * per area below), and the names reserved for areas still to come. Function bundles read this
 * module (the names, the wallets of an event): it carries the views' names, never a view.
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
  ...CUSTOMER_EVENTS,
  ...INVOICE_EVENTS,
  ...INVOICE_COLLECTION_EVENTS,
  ...PAYMENT_LINK_EVENTS,
  ...DISPUTE_EVENTS,
} as const;

export type EmittedEventName = Extract<keyof typeof EVENT_DECLARATIONS, string>;

/**
 * The payload (`data`) of an emitted event: the output of its public view, as its area's
 * declaration types its wallets function. `eventChange` accepts nothing else, so a service can not
 * put internal fields on the bus.
 */
export type EventData<N extends EmittedEventName> = Parameters<(typeof EVENT_DECLARATIONS)[N]['wallets']>[0];

/** The emitted names, area by area in the order above (the events table of docs/api.md, the OpenAPI `webhooks`). */
export const EMITTED_EVENT_NAMES = Object.keys(EVENT_DECLARATIONS) as readonly EmittedEventName[];

/**
 * RESERVED event names: named by the spec or the decisions, emitted by no code yet (their areas
 * are not built). A webhook filter or `GET /v1/events?type=` naming one answers 400
 * VALIDATION_ERROR ("not emitted yet"). The area that starts emitting one declares it in its
 * `<area>-events.ts` and removes it from here (the compiler refuses a name in both lists).
 */
export const RESERVED_EVENT_NAMES = [] as const;

export type ReservedEventName = (typeof RESERVED_EVENT_NAMES)[number];

type Never<T extends never> = T;
/** A name both emitted and reserved fails to compile here. */
export type EmittedAndReserved = Never<Extract<EmittedEventName, ReservedEventName>>;

export const EVENT_NAMES: readonly EventName[] = [...EMITTED_EVENT_NAMES, ...RESERVED_EVENT_NAMES];

export type EventName = EmittedEventName | ReservedEventName;

export const isReservedEventName = (name: unknown): name is ReservedEventName =>
  (RESERVED_EVENT_NAMES as readonly unknown[]).includes(name);

/** The `source` of every event on the service's EventBridge bus (the rule to the webhook queue matches it). */
export const EVENT_SOURCE_NAME = 'allowance';
