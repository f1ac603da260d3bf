import type { AuditAction } from '../audit/actions.js';
import { auditChange } from '../audit/audit.js';
import type { AuditChange } from '../audit/ports.js';
import type { IdGenerator } from '../ids.js';
import { targetOf } from '../state-table.js';
import type { Actor } from '../tenancy.js';
import type { Approval } from '../types.js';
import { APPROVAL_STATES, type ApprovalTrigger } from './approval-states.js';
import type { ApprovalChange } from './changes.js';

/** The pieces every decision of an approval commits (approval-service.ts). */

/** An approval of something other than a queued payment: a payment link (approval-subjects.ts). */
export const isSubjectApproval = (approval: Approval): approval is Approval & { paymentLinkId: string } =>
  approval.paymentLinkId !== undefined;

/** The decided approval and its change (a second decision fails on its condition). */
export function decisionChanges(
  approval: Approval,
  trigger: ApprovalTrigger,
  actor: Actor,
  fields: Partial<Approval>,
  at: string,
): { decided: Approval; changes: ApprovalChange[] } {
  const decided: Approval = {
    ...approval,
    ...fields,
    status: targetOf(APPROVAL_STATES, trigger),
    decidedAt: at,
    decidedBy: actor.actorId,
  };
  return { decided, changes: [{ type: 'decideApproval', approval: decided, trigger }] };
}

/** The audit entry of a decision: the approval is the resource, the payment (or the link) in the metadata. */
export const decisionAuditOf =
  (ids: IdGenerator) =>
  (approval: Approval, actor: Actor, action: AuditAction, at: string, extra: Record<string, unknown>): AuditChange =>
    auditChange(
      {
        organizationId: approval.organizationId,
        environment: approval.environment,
        actor,
        action,
        resource: 'approval',
        resourceId: approval.id,
        walletId: approval.walletId,
        metadata: {
          transactionId: approval.transactionId,
          amount: approval.payment.amount,
          currency: 'USD',
          ...(isSubjectApproval(approval)
            ? { paymentLinkId: approval.paymentLinkId }
            : { recipientWalletId: approval.payment.to }),
          ...extra,
        },
        createdAt: at,
      },
      ids,
    );
