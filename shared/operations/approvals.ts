import * as z from 'zod/mini';
import type { ApprovalService } from '../domain/approvals/approval-service.js';
import { presentApproval } from '../domain/approvals/approval-view.js';
import { AUDIT } from '../domain/audit/actions.js';
import { withThousands } from '../domain/text.js';
import { APPROVAL_STATUSES } from '../domain/types.js';
import { HINTS, defineGroup, operation } from './define.js';
import { describe, note, walletId, MAX_NOTE_LENGTH } from './fields.js';
import { listOperation } from './list.js';

export interface ApprovalsServices {
  approvals: ApprovalService;
}

const op = operation<ApprovalsServices>();
const list = listOperation<ApprovalsServices>();
const approvalParam = { id: 'The approval id (`apr_...`).' };

export const APPROVALS = defineGroup<ApprovalsServices>()('approvals', {}, [
  list({
    name: 'listApprovals',
    summary: 'List approvals',
    description:
      "Payments queued for human approval, newest first, optionally by status or wallet. An agent key sees its own wallet's approvals.",
    access: 'key',
    permission: 'payments:read',
    http: { method: 'GET', path: '/v1/approvals', status: 200 },
    mcp: { tool: 'list_approvals', hints: HINTS.read },
    filters: () => ({
      status: z.optional(describe(z.enum(APPROVAL_STATUSES), 'Only approvals in this status.')),
      walletId: z.optional(walletId('Only approvals of payments from this wallet.')),
    }),
    output: 'approvalPageView',
    errors: ['WALLET_NOT_FOUND'],
    list: ({ services, auth, query }, page) =>
      services.approvals.list(auth, { status: query.status, walletId: query.walletId }, page),
    present: presentApproval,
  }),
  op({
    name: 'getApproval',
    summary: 'Get an approval',
    description:
      'One approval: PENDING until a person decides; then APPROVED (the payment posted), REJECTED, EXPIRED or FAILED (it could not post). Poll it after an APPROVAL_REQUIRED answer.',
    access: 'key',
    permission: 'payments:read',
    http: { method: 'GET', path: '/v1/approvals/{id}', status: 200 },
    params: approvalParam,
    mcp: { tool: 'get_approval', hints: HINTS.read },
    output: 'approvalView',
    errors: ['APPROVAL_NOT_FOUND', 'ENVIRONMENT_MISMATCH'],
    run: ({ services, auth, params }) => services.approvals.get(auth, params.id!),
    present: presentApproval,
  }),
  op({
    name: 'approveApproval',
    summary: 'Approve a queued payment',
    description:
      'Posts the queued payment now, if the policies of now, the funds and the wallet status allow it; otherwise the approval ends FAILED with the reason. The key that requested the payment can not approve it.',
    access: 'organization',
    permission: 'approvals:decide',
    audit: AUDIT.approval.approve,
    events: ['approval.approved', 'payment.posted', 'payment.failed'],
    http: { method: 'POST', path: '/v1/approvals/{id}/approve', status: 200 },
    params: approvalParam,
    // Moves money once: a repeated decision answers INVALID_STATE and moves nothing.
    mcp: { tool: 'approve_payment', hints: HINTS.destructive },
    body: () =>
      z.strictObject({
        note: note(`A note kept with the decision (at most ${withThousands(MAX_NOTE_LENGTH)} characters).`),
      }),
    output: 'approvalView',
    errors: ['APPROVAL_NOT_FOUND', 'INVALID_STATE', 'ENVIRONMENT_MISMATCH'],
    run: ({ services, auth, audit, params, body }) => services.approvals.approve(auth, audit, params.id!, body.note),
    present: presentApproval,
  }),
  op({
    name: 'rejectApproval',
    summary: 'Reject a queued payment',
    description: 'Rejects the queued payment; nothing moves.',
    access: 'organization',
    permission: 'approvals:decide',
    audit: AUDIT.approval.reject,
    events: ['approval.rejected'],
    http: { method: 'POST', path: '/v1/approvals/{id}/reject', status: 200 },
    params: approvalParam,
    mcp: { tool: 'reject_payment', hints: HINTS.destructive },
    body: () =>
      z.strictObject({
        reason: note(`Why the payment was rejected (at most ${withThousands(MAX_NOTE_LENGTH)} characters).`),
      }),
    output: 'approvalView',
    errors: ['APPROVAL_NOT_FOUND', 'INVALID_STATE', 'ENVIRONMENT_MISMATCH'],
    run: ({ services, auth, audit, params, body }) => services.approvals.reject(auth, audit, params.id!, body.reason),
    present: presentApproval,
  }),
]);
