/**
 * Every event name of the API (interface-spec section 6 and decisions.md section 8), emitted
 * today or by an area still to come. The payloads of emitted events are in event-payloads.ts;
 * shared/events/catalog.ts joins both for webhooks, the events API and the docs.
 */
export const EVENT_NAMES = [
  'deposit.initiated', 'deposit.completed', 'deposit.failed',
  'withdrawal.initiated', 'withdrawal.completed', 'withdrawal.failed',
  'wallet.funds_pending', 'wallet.funds_available',
  'card.created', 'card.updated', 'card.cancelled', 'card.authorization.approved',
  'card.authorization.declined', 'card.authorization.captured', 'card.authorization.reversed',
  'card.refund.created',
  'customer.created', 'customer.updated', 'customer.payment_method.saved',
  'customer.payment_method.updated', 'customer.payment_method.removed',
  'payment_link.created', 'payment_link.claimed', 'payment_link.settled', 'payment_link.expired',
  'payment_link.cancelled',
  'invoice.created', 'invoice.finalized', 'invoice.paid', 'invoice.payment_failed', 'invoice.voided',
  'invoice.refunded', 'invoice.uncollectible', 'invoice.usdc_unmatched',
  'approval.approved', 'approval.rejected',
  // decisions.md section 8: beyond the spec
  'payment.posted', 'payment.failed', 'payment.reversed',
  'approval.requested', 'approval.expired',
  'dispute.created', 'dispute.responded', 'dispute.resolved',
  'agent.created', 'agent.paused', 'agent.resumed', 'agent.deleted',
  // wallet lifecycle and funding (decided in docs/api.md)
  'wallet.created', 'wallet.funded',
  'organization.created',
  // a transfer cancelled while pending (decided in docs/api.md)
  'deposit.cancelled', 'withdrawal.cancelled',
  // decisions.md section 8: POST /v1/webhooks/:id/test
  'webhook.test',
] as const;

export type EventName = (typeof EVENT_NAMES)[number];

/** The `source` of every event on the service's EventBridge bus (the rule to the webhook queue matches it). */
export const EVENT_SOURCE_NAME = 'allowance';
