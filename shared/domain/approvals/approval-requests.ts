import { eventChange } from '../audit/audit.js';
import type { AuditChange } from '../audit/ports.js';
import type { IdGenerator } from '../ids.js';
import type { PaymentLink } from '../payment-links/types.js';
import type { Approval } from '../types.js';
import { approvalExpiryMs } from './approval-rules.js';
import { presentApproval } from './approval-view.js';
import type { ApprovalChange } from './changes.js';

/**
 * The approval of a payment link a policy queued (decisions.md section 3, docs/api.md "Payment
 * links"): reason and expiry as a queued payment's; `transactionId` is the link's hold,
 * `payment` what the link pays out from its wallet (no recipient wallet yet: `to` is the link's
 * own wallet). Committed in the link's create transaction with `approvalRequestChanges`; its
 * expiry is scheduled after the commit as a payment's (`{kind: 'approval', id}`).
 */
export function linkApprovalOf(
  link: Pick<PaymentLink, 'id' | 'organizationId' | 'environment' | 'walletId' | 'amount' | 'description' | 'holdId'>,
  request: { id: string; reason: string; requestedByKeyId: string; now: Date; timeScale: number },
): Approval {
  return {
    id: request.id,
    organizationId: link.organizationId,
    environment: link.environment,
    walletId: link.walletId,
    status: 'PENDING',
    payment: {
      from: link.walletId,
      to: link.walletId,
      amount: link.amount,
      ...(link.description ? { description: link.description } : {}),
    },
    transactionId: link.holdId,
    paymentLinkId: link.id,
    reason: request.reason,
    requestedByKeyId: request.requestedByKeyId,
    createdAt: request.now.toISOString(),
    expiresAt: new Date(request.now.getTime() + approvalExpiryMs(link.environment, request.timeScale)).toISOString(),
  };
}

/** The approval's record and its `approval.requested` event, for the transaction that queues it. */
export function approvalRequestChanges(approval: Approval, ids: IdGenerator): [ApprovalChange, AuditChange] {
  return [
    { type: 'createApproval', approval },
    eventChange(
      {
        organizationId: approval.organizationId,
        environment: approval.environment,
        type: 'approval.requested',
        data: presentApproval(approval),
        createdAt: approval.createdAt,
      },
      ids,
    ),
  ];
}
