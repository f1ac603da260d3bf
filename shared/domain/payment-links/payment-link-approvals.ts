import type { ApprovalSubject, ApprovalSubjects, SubjectChange } from '../approvals/approval-subjects.js';
import { AUDIT } from '../audit/actions.js';
import { canTransition } from '../state-table.js';
import type { Actor } from '../tenancy.js';
import type { Approval } from '../types.js';
import { paymentLinkKernel, type PaymentLinkServiceDeps } from './payment-link-kernel.js';
import { linkHoldVoid } from './payment-link-postings.js';
import { PAYMENT_LINK_STATES } from './payment-link-states.js';
import type { PaymentLink } from './types.js';

/**
 * A payment link as the subject of its approval (approvals/approval-subjects.ts; docs/api.md
 * "Payment links", "Links that need approval"). The link was created PENDING_APPROVAL with its
 * hold taken; the approval service commits what this returns with the decision:
 *
 * - approved: PENDING_APPROVAL -> ACTIVE (`approve`; the hold and the expiry schedule stay), audited
 *   on the link. Refused (the approval ends FAILED, INVALID_STATE) when the link is no longer
 *   PENDING_APPROVAL (its expiry ran) or its `expiresAt` has passed;
 * - rejected, expired or failed: PENDING_APPROVAL -> CANCELLED (`refuse`), the whole hold voided
 *   (spend given back, as a withdrawal's), audit `payment-link.cancel`, `payment_link.cancelled`.
 *   A link past its `expiresAt` is EXPIRED instead (`expire`, `payment_link.expired`), as its own
 *   expiry would have made it. A link no longer PENDING_APPROVAL: nothing (its own end released the hold).
 */
export function paymentLinkApprovals(deps: PaymentLinkServiceDeps): ApprovalSubjects {
  const kernel = paymentLinkKernel(deps);

  async function linkOf(approval: Approval & { paymentLinkId: string }): Promise<PaymentLink> {
    const link = await deps.store.getPaymentLink(approval.paymentLinkId);
    // The approval is written in the link's create transaction: a missing link is a bug, not a client's doing.
    if (!link || link.approvalId !== approval.id)
      throw new Error(`approval ${approval.id} names payment link ${approval.paymentLinkId}, which is not its own`);
    return link;
  }

  const pastDue = (link: PaymentLink, at: string) => Date.parse(link.expiresAt) <= Date.parse(at);

  function subjectOf(approval: Approval & { paymentLinkId: string }): ApprovalSubject {
    return {
      async onApproved(decided: Approval, actor: Actor, at: string) {
        const link = await linkOf(approval);
        if (!canTransition(PAYMENT_LINK_STATES, link.status, 'approve'))
          return kernel.invalidState(link, 'it can no longer be approved');
        if (pastDue(link, at))
          return kernel.invalidState({ status: 'EXPIRED' }, 'its expiresAt has passed, it can no longer be approved');
        const active: PaymentLink = { ...link, status: 'ACTIVE', updatedAt: at };
        return [
          { type: 'transitionPaymentLink', linkId: link.id, trigger: 'approve', set: { updatedAt: at } },
          kernel.auditOf(actor, active, AUDIT.approval.approve, at, { approvalId: decided.id }),
        ];
      },

      async onRefused(decided: Approval, actor: Actor, at: string): Promise<SubjectChange[]> {
        const link = await linkOf(approval);
        if (!canTransition(PAYMENT_LINK_STATES, link.status, 'refuse')) return [];
        const metadata = { approvalId: decided.id, approvalStatus: decided.status };
        const release = linkHoldVoid(link, deps.ids('transaction'), at);
        if (pastDue(link, at)) {
          const expired: PaymentLink = { ...link, status: 'EXPIRED', expiredAt: at, updatedAt: at };
          return [
            release,
            {
              type: 'transitionPaymentLink',
              linkId: link.id,
              trigger: 'expire',
              set: { expiredAt: at, updatedAt: at },
            },
            kernel.auditOf(actor, expired, AUDIT.paymentLink.expire, at, metadata),
            kernel.eventOf('payment_link.expired', expired, at),
          ];
        }
        const cancelled: PaymentLink = { ...link, status: 'CANCELLED', cancelledAt: at, updatedAt: at };
        return [
          release,
          {
            type: 'transitionPaymentLink',
            linkId: link.id,
            trigger: 'refuse',
            set: { cancelledAt: at, updatedAt: at },
          },
          kernel.auditOf(actor, cancelled, AUDIT.paymentLink.cancel, at, metadata),
          kernel.eventOf('payment_link.cancelled', cancelled, at),
        ];
      },
    };
  }

  return { subjectOf: async (approval) => subjectOf(approval) };
}
