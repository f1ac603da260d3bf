import * as z from 'zod/mini';
import { ERROR_CODES } from '../errors.js';
import { PAYMENT_STATUSES, type Transaction } from '../types.js';
import {
  type Conforms,
  describe,
  enumOf,
  errorFields,
  exampleOf,
  id,
  integer,
  lazy,
  listOf,
  money,
  nullableId,
  nullableText,
  nullableTimestamp,
  objectTag,
  pageOf,
  text,
  timestamp,
  usd,
  view,
} from '../views.js';
import { everyOf } from '../enums.js';

export const TRANSACTION_TYPES = everyOf<Transaction['type']>()([
  'PAYMENT',
  'REVERSAL',
  'FUNDING',
  'BUDGET_ADJUSTMENT',
  'SWEEP',
]);

export const paymentView = /* @__PURE__ */ lazy(() =>
  view(
    {
      id: id('transaction', 'Payment (transaction) id.'),
      object: objectTag('payment'),
      type: enumOf(
        TRANSACTION_TYPES,
        'PAYMENT (wallet to wallet), REVERSAL (the mirror of a reversed payment), FUNDING (sandbox test money), BUDGET_ADJUSTMENT (between the main wallet and an agent) or SWEEP (an agent balance returned on deletion).',
      ),
      from: text(
        'Paying side: a wallet id (`wal_...`), or a system account (`acc_...`, e.g. `acc_SANDBOX_FUNDING` for fundings).',
      ),
      to: text("Receiving wallet id (`wal_...`); for a merchant payment, the merchant profile's wallet."),
      amount: money('Amount moved, always positive.'),
      fee: money(
        'Fee of the payment: "0.00" for wallet-to-wallet payments; for an invoice paid from a wallet (`invoiceId`), the service fee withheld from what the receiving wallet gets (it receives amount - fee).',
      ),
      currency: usd(),
      status: enumOf(
        PAYMENT_STATUSES,
        'POSTED (money moved), QUEUED (waiting for approval, see `approvalId`), REJECTED (approval rejected), FAILED (see `failureCode`) or REVERSED (posted, then reversed, see `reversedBy`).',
      ),
      description: nullableText('Description given with the payment, or null.'),
      idempotencyKey: nullableText(
        'Idempotency key the payment was made with, or null. Shown only to the organization that made it: the receiving organization always sees null.',
      ),
      merchant: nullableText('Merchant domain when paid to `merchant:<domain>`, or null.'),
      approvalId: nullableId('approval', 'The approval this payment waited for, or null if none was needed.'),
      reversalOf: nullableId('transaction', 'For a REVERSAL, the payment it reverses; null otherwise.'),
      reversedBy: nullableId('transaction', 'For a REVERSED payment, the REVERSAL that undid it; null otherwise.'),
      failureCode: nullableText(
        'Why the payment did not post: INSUFFICIENT_FUNDS, WALLET_FROZEN, POLICY_DENIED (at approval time), APPROVAL_EXPIRED, or INVALID_STATE (the invoice it pays was no longer FINALIZED when approved); null otherwise.',
      ),
      invoiceId: nullableId(
        'invoice',
        'The invoice this payment pays (`POST /v1/invoices/pay/{slug}/wallet`), or null for any other payment.',
      ),
      disputeId: nullableId('dispute', 'Its dispute (it can no longer be reversed), or null.'),
      createdAt: timestamp('When the payment was requested.'),
      postedAt: nullableTimestamp('When the money moved, or null while it has not.'),
    },
    'A payment: money moved (or waiting to move) from one wallet to another, in one double-entry transaction.',
    {
      id: 'txn_3v69JCj7iUJJIENQ5uIkffiK',
      object: 'payment',
      type: 'PAYMENT',
      from: 'wal_xZTRJjUn1z5KLKFL2fXHmE5h',
      to: 'wal_eHZu8N9uBMLgsPmm9M53GS6w',
      amount: '40.00',
      fee: '0.00',
      currency: 'USD',
      status: 'POSTED',
      description: 'API credits for March',
      idempotencyKey: 'order-8812-credits',
      merchant: null,
      approvalId: null,
      reversalOf: null,
      reversedBy: null,
      failureCode: null,
      invoiceId: null,
      disputeId: null,
      createdAt: '2026-03-14T10:02:11.412Z',
      postedAt: '2026-03-14T10:02:11.412Z',
    },
  ),
);
export type PaymentView = z.infer<typeof paymentView>;

/** The wire shape of a payment (interface-spec 2.4); also what an idempotency record replays. */
export function presentPayment(transaction: Transaction): PaymentView {
  return {
    id: transaction.id,
    object: 'payment',
    type: transaction.type,
    from: transaction.from,
    to: transaction.to,
    amount: transaction.amount,
    fee: transaction.fee,
    currency: transaction.currency,
    status: transaction.status,
    description: transaction.description ?? null,
    idempotencyKey: transaction.idempotencyKey ?? null,
    merchant: transaction.merchant ?? null,
    approvalId: transaction.approvalId ?? null,
    reversalOf: transaction.reversalOf ?? null,
    reversedBy: transaction.reversedBy ?? null,
    failureCode: transaction.failureCode ?? null,
    invoiceId: transaction.invoiceId ?? null,
    disputeId: transaction.disputeId ?? null,
    createdAt: transaction.createdAt,
    postedAt: transaction.postedAt ?? null,
  };
}

/**
 * A payment as one organization sees it (decisions.md section 3): the idempotency key, the
 * approval and the failure belong to the organization that made the payment (for a reversal, the
 * one that reversed), so the other side sees null.
 */
export function presentPaymentTo(transaction: Transaction, viewerOrganizationId: string | null): PaymentView {
  const view = presentPayment(transaction);
  return transaction.organizationId === viewerOrganizationId
    ? view
    : { ...view, idempotencyKey: null, approvalId: null, failureCode: null };
}

export const paymentPageView = /* @__PURE__ */ lazy(() =>
  pageOf(paymentView, 'A page of payments and reversals the caller sent or received, newest first.'),
);

const queuedExample = {
  code: 'APPROVAL_REQUIRED' as const,
  message: 'A spend policy requires human approval; the payment is queued and posts once approved.',
  details: {
    approvalId: 'apr_YqAvOKYvEUVB778CyUo173w2',
    transactionId: 'txn_2wHYq8yGFiJin01BVhz8nQja',
    expiresAt: '2026-03-17T11:15:00.000Z',
  },
};

export const approvalRequiredView = /* @__PURE__ */ lazy(() =>
  view(
    {
      error: describe(
        z.object({
          code: describe(z.literal('APPROVAL_REQUIRED'), 'Always APPROVAL_REQUIRED.'),
          message: text('Human-readable explanation.'),
          details: describe(
            z.object({
              approvalId: id('approval', 'The approval to decide (GET /v1/approvals/{id}).'),
              transactionId: id(
                'transaction',
                "The QUEUED payment; it posts once approved. For a payment link: the link's hold (amount + fee, taken at once).",
              ),
              expiresAt: timestamp('Deadline of the decision; after it the payment fails with APPROVAL_EXPIRED.'),
              paymentLinkId: z.optional(
                id(
                  'paymentLink',
                  'A payment link queued for approval (POST /v1/payment-links): stored PENDING_APPROVAL, ACTIVE once approved. Absent for a payment.',
                ),
              ),
            }),
            'Where to follow the payment.',
          ),
        }),
        'Why the payment did not post yet.',
      ),
    },
    'The 202 answer of a payment that a spend policy holds for human approval: the payment is stored QUEUED and posts when an admin approves it. Not an error of the request; do not retry it.',
    { error: queuedExample },
  ),
);
export type ApprovalRequiredView = z.infer<typeof approvalRequiredView>;

export const batchPaymentsView = /* @__PURE__ */ lazy(() =>
  listOf(
    paymentView,
    'The 200 answer of a batch whose every payment posted.',
    'The posted payments, in the order of the request.',
  ),
);
export type BatchPaymentsView = z.infer<typeof batchPaymentsView>;

/** One item of a batch as the payment service answers it; PaymentAnswersConform below checks it against its view. */
export interface BatchItemResult {
  index: number;
  status: number;
  payment?: unknown;
  error?: { code: string; message: string; details?: Record<string, unknown> };
}

export const batchItemResultView = /* @__PURE__ */ lazy(() =>
  view(
    {
      index: integer('Position of the item in the request, from 0.'),
      status: integer(
        'HTTP status the item would have had on its own: 200 posted, 202 queued for approval, otherwise the status of its error code.',
      ),
      payment: z.optional(describe(paymentView, 'The posted payment (status 200); absent otherwise.')),
      error: z.optional(
        describe(
          z.object(errorFields()),
          'Why the item did not post (any status but 200): APPROVAL_REQUIRED for a queued item, else the refusal; absent for a posted item.',
        ),
      ),
    },
    'The result of one item of a batch.',
    { index: 1, status: 202, error: queuedExample },
  ),
);
export type BatchItemResultView = z.infer<typeof batchItemResultView>;

export const batchPartialFailureView = /* @__PURE__ */ lazy(() =>
  view(
    {
      error: describe(
        z.object({
          code: describe(z.literal('BATCH_PARTIAL_FAILURE'), 'Always BATCH_PARTIAL_FAILURE.'),
          message: text('How many payments did not post, e.g. "1 of 2 payments did not post."'),
          details: describe(
            z.object({ results: describe(z.array(batchItemResultView), 'Every item, in request order.') }),
            'The result of every item.',
          ),
        }),
        'Which items posted and which did not.',
      ),
    },
    'The 207 answer of a batch where at least one payment did not post (queued items count as not posted). Posted items stay posted; retry only the failed ones, or the same batch with the same idempotency key to get this answer again.',
    {
      error: {
        code: 'BATCH_PARTIAL_FAILURE',
        message: '1 of 2 payments did not post.',
        details: {
          results: [
            { index: 0, status: 200, payment: exampleOf(paymentView) as PaymentView },
            { index: 1, status: 202, error: queuedExample },
          ],
        },
      },
    },
  ),
);
export type BatchPartialFailureView = z.infer<typeof batchPartialFailureView>;

/** Type-only: the service's batch items fit the view (`payment` and `error` are untyped there). */
export type PaymentAnswersConform = [
  Conforms<Omit<BatchItemResult, 'payment' | 'error'>, Omit<BatchItemResultView, 'payment' | 'error'>>,
];

/** The payload of `payment.failed` (shared/domain/payments/payment-events.ts). */
export const paymentFailedEventView = /* @__PURE__ */ lazy(() =>
  view(
    {
      transactionId: id('transaction', 'The queued payment that failed.'),
      approvalId: id('approval', 'Its approval.'),
      failureCode: enumOf(ERROR_CODES, 'Why it could not post.'),
    },
    'A queued payment was approved but could not post.',
    { transactionId: 'txn_9fQw2LmZr4Tb8Ks1', approvalId: 'apr_Lm4Zq8Tr2Wb9Xk1P', failureCode: 'INSUFFICIENT_FUNDS' },
  ),
);
