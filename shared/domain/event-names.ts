import { AGENT_EVENT_WALLETS } from './agents/agent-events.js';
import { APPROVAL_EVENT_WALLETS } from './approvals/approval-events.js';
import { CARD_EVENT_WALLETS } from './cards/card-events.js';
import { ORGANIZATION_EVENT_WALLETS } from './organizations/organization-events.js';
import { PAYMENT_EVENT_WALLETS } from './payments/payment-events.js';
import { TRANSFER_EVENT_WALLETS } from './transfers/transfer-events.js';
import { WALLET_EVENT_WALLETS } from './wallets/wallet-events.js';
import { WEBHOOK_EVENT_WALLETS } from './webhooks/webhook-events.js';

/**
 * Every event name of the API (interface-spec section 6 and decisions.md section 8), in two lists:
 * the names the service emits today, declared by their areas (each in its own `<area>-events.ts`,
 * one line per area below), and the names reserved for areas still to come. This module is what a
 * function bundle reads (the names, the wallets an event concerns): it carries no payload view.
 * The payloads and occasions are joined in event-payloads.ts, one line per area as well; the
 * compiler checks that both lists name the same events.
 */
export const EVENT_WALLETS = {
  ...TRANSFER_EVENT_WALLETS,
  ...CARD_EVENT_WALLETS,
  ...APPROVAL_EVENT_WALLETS,
  ...PAYMENT_EVENT_WALLETS,
  ...AGENT_EVENT_WALLETS,
  ...WALLET_EVENT_WALLETS,
  ...ORGANIZATION_EVENT_WALLETS,
  ...WEBHOOK_EVENT_WALLETS,
} as const;

export type EmittedEventName = keyof typeof EVENT_WALLETS;

/** The emitted names, area by area in the order above (the events table of docs/api.md, the OpenAPI `webhooks`). */
export const EMITTED_EVENT_NAMES = Object.keys(EVENT_WALLETS) as readonly EmittedEventName[];

/**
 * RESERVED event names: named by the spec or the decisions, emitted by no code yet (their areas
 * are not built). A webhook filter or `GET /v1/events?type=` naming one answers 400
 * VALIDATION_ERROR ("not emitted yet"). The area that starts emitting one declares it in its
 * `<area>-events.ts` and removes it from here (the compiler refuses a name in both lists).
 */
export const RESERVED_EVENT_NAMES = [
  'customer.created', 'customer.updated', 'customer.payment_method.saved',
  'customer.payment_method.updated', 'customer.payment_method.removed',
  'payment_link.created', 'payment_link.claimed', 'payment_link.settled', 'payment_link.expired',
  'payment_link.cancelled',
  'invoice.created', 'invoice.finalized', 'invoice.paid', 'invoice.payment_failed', 'invoice.voided',
  'invoice.refunded', 'invoice.uncollectible', 'invoice.usdc_unmatched',
  // decisions.md section 8: beyond the spec
  'dispute.created', 'dispute.responded', 'dispute.resolved',
] as const;

export type ReservedEventName = (typeof RESERVED_EVENT_NAMES)[number];

type Never<T extends never> = T;
/** A name both emitted and reserved fails to compile here. */
export type EmittedAndReserved = Never<Extract<EmittedEventName, ReservedEventName>>;

export const EVENT_NAMES: readonly EventName[] = [...EMITTED_EVENT_NAMES, ...RESERVED_EVENT_NAMES];

export type EventName = EmittedEventName | ReservedEventName;

export const isReservedEventName = (name: unknown): name is ReservedEventName => (RESERVED_EVENT_NAMES as readonly unknown[]).includes(name);

/** The `source` of every event on the service's EventBridge bus (the rule to the webhook queue matches it). */
export const EVENT_SOURCE_NAME = 'allowance';
