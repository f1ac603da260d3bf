import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import {
  createdAgentView,
  agentDeletedView,
  agentStatusView,
  agentTemplateView,
} from '../../shared/domain/agents/agent-view.js';
import { approvalView } from '../../shared/domain/approvals/approval-view.js';
import { authorizationView, cardRefundView, cardView } from '../../shared/domain/cards/card-view.js';
import { customerView, paymentMethodView } from '../../shared/domain/customers/customer-view.js';
import { disputeView } from '../../shared/domain/disputes/dispute-view.js';
import { invoiceView } from '../../shared/domain/invoices/invoice-view.js';
import { EVENT_DECLARATIONS, type EmittedEventName } from '../../shared/domain/event-names.js';
import { usdcReceiptView } from '../../shared/domain/invoices/invoice-collection-view.js';
import { createdOrganizationView } from '../../shared/domain/organizations/organization-view.js';
import { paymentLinkView } from '../../shared/domain/payment-links/payment-link-view.js';
import { paymentView } from '../../shared/domain/payments/payment-view.js';
import { walletFundingView, walletView } from '../../shared/domain/wallets/wallet-view.js';
import { clearingView, transferView } from '../../shared/domain/transfers/transfer-view.js';
import { viewOf } from '../../shared/domain/view-registry.js';
import { webhookView } from '../../shared/domain/webhooks/webhook-view.js';
import { EMITTED_EVENTS } from '../../shared/events/catalog.js';

type Schema = { properties?: Record<string, Schema>; items?: Schema };
const jsonSchema = (schema: z.ZodMiniType) =>
  z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'output', unrepresentable: 'any' }) as Schema;

/**
 * The public view (what the API answers for the resource) each emitted event's payload must stay
 * within. `renamed`: payload field -> the view's field it is (an event about a payment names it
 * `transactionId`, the payment's view `id`). `within`: the view's object field holding the resource (the created organization's
 * answer nests it under `organization`, next to the one-time sandbox key). `alsoFrom`: a field taken from another public view
 * (agent.created echoes the public template id of GET /v1/agent-templates). A mapped type: a new
 * emitted event fails to compile here until its view is named.
 */
const PUBLIC_VIEW_OF: {
  readonly [N in EmittedEventName]: {
    view: z.ZodMiniType;
    within?: string;
    renamed?: Record<string, string>;
    alsoFrom?: Record<string, z.ZodMiniType>;
  };
} = {
  'organization.created': { view: createdOrganizationView, within: 'organization' },
  'wallet.created': { view: walletView },
  'wallet.funded': { view: walletFundingView },
  'agent.created': { view: createdAgentView, alsoFrom: { templateId: agentTemplateView } },
  'agent.paused': { view: agentStatusView },
  'agent.resumed': { view: agentStatusView },
  'agent.deleted': { view: agentDeletedView },
  'payment.posted': { view: paymentView },
  'payment.reversed': { view: paymentView },
  'payment.failed': { view: paymentView, renamed: { transactionId: 'id' } },
  'approval.requested': { view: approvalView },
  'approval.approved': { view: approvalView },
  'approval.rejected': { view: approvalView },
  'approval.expired': { view: approvalView },
  'webhook.test': { view: webhookView, renamed: { webhookId: 'id' } },
  'card.created': { view: cardView },
  'customer.created': { view: customerView },
  'customer.updated': { view: customerView },
  'customer.payment_method.saved': { view: paymentMethodView },
  'customer.payment_method.updated': { view: paymentMethodView },
  'customer.payment_method.removed': { view: paymentMethodView },
  'card.updated': { view: cardView },
  'card.cancelled': { view: cardView },
  'card.authorization.approved': { view: authorizationView },
  'card.authorization.declined': { view: authorizationView },
  'card.authorization.captured': { view: authorizationView },
  'card.authorization.reversed': { view: authorizationView },
  'card.refund.created': { view: cardRefundView },
  'deposit.initiated': { view: transferView },
  'deposit.completed': { view: transferView },
  'deposit.failed': { view: transferView },
  'deposit.cancelled': { view: transferView },
  'withdrawal.initiated': { view: transferView },
  'withdrawal.completed': { view: transferView },
  'withdrawal.failed': { view: transferView },
  'withdrawal.cancelled': { view: transferView },
  'payment_link.created': { view: paymentLinkView },
  'payment_link.claimed': { view: paymentLinkView },
  'payment_link.settled': { view: paymentLinkView },
  'payment_link.expired': { view: paymentLinkView },
  'payment_link.cancelled': { view: paymentLinkView },
  'wallet.funds_pending': {
    view: transferView,
    renamed: { transferId: 'id', amount: 'netAmount' },
    alsoFrom: { availableAt: clearingView },
  },
  'wallet.funds_available': { view: transferView, renamed: { transferId: 'id', amount: 'netAmount' } },
  'invoice.created': { view: invoiceView },
  'invoice.finalized': { view: invoiceView },
  'invoice.paid': { view: invoiceView },
  'invoice.payment_failed': { view: invoiceView },
  'invoice.voided': { view: invoiceView },
  'invoice.refunded': { view: invoiceView },
  'invoice.uncollectible': { view: invoiceView },
  'invoice.usdc_unmatched': { view: usdcReceiptView },
  'dispute.created': { view: disputeView },
  'dispute.responded': { view: disputeView },
  'dispute.resolved': { view: disputeView },
};

/** Fields of `payload` (nested objects and arrays included) that `view` does not have. */
function fieldsOutside(payload: Schema, view: Schema, path = ''): string[] {
  const outside: string[] = [];
  for (const [field, sub] of Object.entries(payload.properties ?? {})) {
    const inView = view.properties?.[field];
    if (!inView) {
      outside.push(`${path}${field}`);
      continue;
    }
    outside.push(...fieldsOutside(sub, inView, `${path}${field}.`));
    if (sub.items && inView.items) outside.push(...fieldsOutside(sub.items, inView.items, `${path}${field}[].`));
  }
  return outside;
}

describe('security: every event payload stays within the public view of its resource', () => {
  it('covers every emitted event type', () => {
    expect(Object.keys(PUBLIC_VIEW_OF).sort()).toEqual([...EMITTED_EVENTS].sort());
  });

  it.each(EMITTED_EVENTS.map((name) => [name] as const))('%s has no field its public view lacks', (name) => {
    const { view, within, renamed = {}, alsoFrom = {} } = PUBLIC_VIEW_OF[name];
    const payload = jsonSchema(viewOf(EVENT_DECLARATIONS[name].payload));
    const whole = jsonSchema(view);
    const viewSchema = within ? (whole.properties?.[within] ?? {}) : whole;
    if (within) expect(viewSchema.properties, `${name}: ${within} in the view`).toBeDefined();
    const extra = Object.fromEntries(
      Object.entries(alsoFrom).map(([field, other]) => [field, jsonSchema(other).properties?.[field]]),
    );
    // The view as the payload spells it: renamed fields under the payload's names, borrowed fields added.
    const properties: Record<string, Schema> = { ...viewSchema.properties };
    for (const [payloadField, viewField] of Object.entries(renamed)) {
      expect(viewSchema.properties?.[viewField], `${name}: ${viewField} in the view`).toBeDefined();
      properties[payloadField] = viewSchema.properties![viewField]!;
    }
    for (const [field, schema] of Object.entries(extra)) {
      expect(schema, `${name}: ${field} in its other public view`).toBeDefined();
      properties[field] = schema!;
    }
    expect(fieldsOutside(payload, { properties })).toEqual([]);
    expect(Object.keys(payload.properties ?? {}).length, name).toBeGreaterThan(0);
  });

  it('approval events are exactly the approval view, with no internal field', () => {
    for (const name of ['approval.requested', 'approval.approved', 'approval.rejected', 'approval.expired'] as const) {
      expect(Object.keys(jsonSchema(viewOf(EVENT_DECLARATIONS[name].payload)).properties ?? {}).sort()).toEqual(
        Object.keys(jsonSchema(approvalView).properties ?? {}).sort(),
      );
      for (const internal of ['requestedByKeyId', 'organizationId', 'environment', 'PK', 'SK', 'entityType']) {
        expect(
          Object.keys(jsonSchema(viewOf(EVENT_DECLARATIONS[name].payload)).properties ?? {}),
          `${name}: ${internal}`,
        ).not.toContain(internal);
      }
    }
  });

  it('detects a payload field the view lacks (the check can fail)', () => {
    const leaky = z.object({ id: z.string(), requestedByKeyId: z.string() });
    expect(fieldsOutside(jsonSchema(leaky), jsonSchema(approvalView))).toEqual(['requestedByKeyId']);
  });
});
