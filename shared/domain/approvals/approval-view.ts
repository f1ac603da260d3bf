import * as z from 'zod/mini';
import { APPROVAL_STATUSES, type Approval } from '../types.js';
import {
  type Conforms,
  describe,
  enumOf,
  id,
  lazy,
  money,
  nullableId,
  nullableText,
  nullableTimestamp,
  objectTag,
  pageOf,
  text,
  timestamp,
  view,
} from '../views.js';

export const approvalView = /* @__PURE__ */ lazy(() =>
  view(
    {
      id: id('approval', 'Approval id.'),
      object: objectTag('approval'),
      status: enumOf(
        APPROVAL_STATUSES,
        'PENDING (waiting for a decision), APPROVED (the payment posted), REJECTED (by a person), EXPIRED (not decided within 72 hours) or FAILED (approved, but the payment could not post; see `failureCode`).',
      ),
      walletId: id('wallet', 'The paying wallet.'),
      payment: describe(
        z.object({
          from: id('wallet', 'The paying wallet.'),
          to: id('wallet', "The receiving wallet (for a merchant payment, the merchant profile's wallet)."),
          amount: money('Amount to pay.'),
          description: z.optional(text('Description given with the payment; absent when none was given.')),
          merchant: z.optional(
            text('Merchant domain when the payment was made to `merchant:<domain>`; absent otherwise.'),
          ),
        }),
        'The payment waiting for the decision, as requested.',
      ),
      transactionId: id(
        'transaction',
        "The QUEUED payment; it posts when approved and becomes FAILED when rejected, expired or unable to post. For a payment link: the link's hold (amount + fee, taken at creation; released when the link is refused).",
      ),
      paymentLinkId: nullableId(
        'paymentLink',
        'The payment link waiting for the decision (created `PENDING_APPROVAL` with its hold taken): approving makes it ACTIVE, rejecting or expiring cancels it and releases the hold. Null for a payment.',
      ),
      reason: text(
        'Why approval is needed: `requireHumanApproval` (a policy requires it for every payment) or `approvalThreshold` (the amount is above a policy threshold).',
      ),
      failureCode: nullableText(
        'Why the payment did not post: INSUFFICIENT_FUNDS, WALLET_FROZEN or POLICY_DENIED (status FAILED), APPROVAL_EXPIRED (status EXPIRED); null otherwise.',
      ),
      note: nullableText('Note given by the approver, or null.'),
      rejectionReason: nullableText('Reason given with a rejection, or null.'),
      createdAt: timestamp('When the payment was requested.'),
      decidedAt: nullableTimestamp('When the approval was decided or expired, or null while PENDING.'),
      decidedBy: nullableText(
        'Who decided: the id of the approving or rejecting API key (`key_...`), or `approval-expiry` for an expiry; null while PENDING.',
      ),
      expiresAt: timestamp(
        'Deadline of the decision (72 hours after the request; shorter in the sandbox); later it can no longer be approved.',
      ),
    },
    'A payment waiting for (or past) a human decision because a spend policy requires approval. Approve or reject it with an organization key holding `admin`, other than the key that asked for the payment.',
    {
      id: 'apr_YqAvOKYvEUVB778CyUo173w2',
      object: 'approval',
      status: 'PENDING',
      walletId: 'wal_xZTRJjUn1z5KLKFL2fXHmE5h',
      payment: {
        from: 'wal_xZTRJjUn1z5KLKFL2fXHmE5h',
        to: 'wal_eHZu8N9uBMLgsPmm9M53GS6w',
        amount: '750.00',
        description: 'Annual design tool license',
      },
      transactionId: 'txn_2wHYq8yGFiJin01BVhz8nQja',
      paymentLinkId: null,
      reason: 'approvalThreshold',
      failureCode: null,
      note: null,
      rejectionReason: null,
      createdAt: '2026-03-14T11:15:00.000Z',
      decidedAt: null,
      decidedBy: null,
      expiresAt: '2026-03-17T11:15:00.000Z',
    },
  ),
);
export type ApprovalView = z.infer<typeof approvalView>;

/** Wire shape of decisions.md section 3 (internal fields such as the requesting key stay inside). */
export function presentApproval(approval: Approval): ApprovalView {
  return {
    id: approval.id,
    object: 'approval',
    status: approval.status,
    walletId: approval.walletId,
    payment: approval.payment,
    transactionId: approval.transactionId,
    paymentLinkId: approval.paymentLinkId ?? null,
    reason: approval.reason,
    failureCode: approval.failureCode ?? null,
    note: approval.note ?? null,
    rejectionReason: approval.rejectionReason ?? null,
    createdAt: approval.createdAt,
    decidedAt: approval.decidedAt ?? null,
    decidedBy: approval.decidedBy ?? null,
    expiresAt: approval.expiresAt,
  };
}

export const approvalPageView = /* @__PURE__ */ lazy(() =>
  pageOf(approvalView, 'A page of approvals the key can see, newest first.'),
);

/** Type-only: `payment` is passed through as stored, so its fields must all be declared in the view. */
export type ApprovalAnswersConform = [Conforms<Approval['payment'], ApprovalView['payment']>];
