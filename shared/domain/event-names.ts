/**
 * Every event name of the API (interface-spec section 6 and decisions.md section 8), in two lists:
 * the names the service emits today, each with its payload in event-payloads.ts (the compiler
 * checks both ways), and the names reserved for areas still to come. shared/events/catalog.ts joins
 * the names with their payloads for webhooks, the events API, OpenAPI and docs/api.md.
 */
export const EMITTED_EVENT_NAMES = [
  'deposit.initiated', 'deposit.completed', 'deposit.failed',
  'withdrawal.initiated', 'withdrawal.completed', 'withdrawal.failed',
  'wallet.funds_pending', 'wallet.funds_available',
  'card.created', 'card.updated', 'card.cancelled', 'card.authorization.approved',
  'card.authorization.declined', 'card.authorization.captured', 'card.authorization.reversed',
  'card.refund.created',
  'approval.approved', 'approval.rejected',
  // decisions.md section 8: beyond the spec
  'payment.posted', 'payment.failed', 'payment.reversed',
  'approval.requested', 'approval.expired',
  'agent.created', 'agent.paused', 'agent.resumed', 'agent.deleted',
  // wallet lifecycle and funding (decided in docs/api.md)
  'wallet.created', 'wallet.funded',
  'organization.created',
  // a transfer cancelled while pending (decided in docs/api.md)
  'deposit.cancelled', 'withdrawal.cancelled',
  // decisions.md section 8: POST /v1/webhooks/:id/test
  'webhook.test',
] as const;

/**
 * RESERVED event names: named by the spec or the decisions, emitted by no code yet (their areas
 * are not built). A webhook filter or `GET /v1/events?type=` naming one answers 400
 * VALIDATION_ERROR ("not emitted yet"). The area that starts emitting one moves it to
 * EMITTED_EVENT_NAMES and declares its payload in event-payloads.ts.
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

export const EVENT_NAMES = [...EMITTED_EVENT_NAMES, ...RESERVED_EVENT_NAMES] as const;

export type EventName = (typeof EVENT_NAMES)[number];
export type EmittedEventName = (typeof EMITTED_EVENT_NAMES)[number];
export type ReservedEventName = (typeof RESERVED_EVENT_NAMES)[number];

export const isReservedEventName = (name: unknown): name is ReservedEventName => (RESERVED_EVENT_NAMES as readonly unknown[]).includes(name);

/** The `source` of every event on the service's EventBridge bus (the rule to the webhook queue matches it). */
export const EVENT_SOURCE_NAME = 'allowance';
