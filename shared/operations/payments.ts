import * as z from 'zod/mini';
import { AUDIT } from '../domain/audit/actions.js';
import type { MerchantService } from '../domain/merchants/merchant-service.js';
import { presentMerchant } from '../domain/merchants/merchant-view.js';
import { MAX_BATCH_SIZE, type PaymentService } from '../domain/payments/payment-service.js';
import { presentPaymentTo } from '../domain/payments/payment-view.js';
import type { RequestContext } from '../domain/tenancy.js';
import { withThousands } from '../domain/text.js';
import type { Page, Transaction } from '../domain/types.js';
import { PAYMENT_STATUSES } from '../domain/types.js';
import { HINTS, defineGroup, operation } from './define.js';
import {
  amount,
  batchItemIdempotencyKey,
  describe,
  idempotencyKey,
  name,
  paymentDescription,
  recipient,
  text,
  walletId,
  MAX_NAME_LENGTH,
  MAX_PAYMENT_DESCRIPTION_LENGTH,
} from './fields.js';
import { payInvoiceFromWallet, type InvoiceWalletPaymentServices } from './invoice-wallet-payment.js';
import { listOperation } from './list.js';

export interface PaymentsServices extends InvoiceWalletPaymentServices {
  payments: PaymentService;
  merchants: MerchantService;
}

const op = operation<PaymentsServices>();
const list = listOperation<PaymentsServices>();

/** A payment with the organization reading it: the presenter hides the payer's idempotency key from the payee. */
interface ViewedPayment {
  transaction: Transaction;
  viewer: string | null;
}
const viewedBy =
  (auth: RequestContext) =>
  (transaction: Transaction): ViewedPayment => ({ transaction, viewer: auth.principal.organizationId });
const presentViewed = ({ transaction, viewer }: ViewedPayment) => presentPaymentTo(transaction, viewer);

const paymentFields = (key = idempotencyKey) => ({
  from: text(128, 'The paying wallet id (`wal_...`); an agent key may pay only from its own wallet.', {
    trim: true,
    min: 1,
    tooLong: 'is not a wallet id',
  }),
  to: recipient(
    'The receiving wallet id (`wal_...`), or `merchant:<domain>` for a registered closed-loop merchant (domains are case-insensitive).',
  ),
  amount: amount('Amount to pay, in USD.'),
  description: z.optional(
    paymentDescription(
      `Free text shown on both statements (at most ${withThousands(MAX_PAYMENT_DESCRIPTION_LENGTH)} characters; tab and newline allowed).`,
    ),
  ),
  idempotencyKey: key(),
});

const PAYMENT_ERRORS = [
  'INSUFFICIENT_FUNDS',
  'POLICY_DENIED',
  'RECIPIENT_NOT_ALLOWED',
  'WALLET_FROZEN',
  'WALLET_NOT_FOUND',
  'INVALID_AMOUNT',
  'SELF_PAYMENT',
  'ENVIRONMENT_MISMATCH',
  'MERCHANT_NOT_FOUND',
  'MERCHANT_SUSPENDED',
  'CLOSED_LOOP_UNAVAILABLE',
  'IDEMPOTENCY_KEY_REUSE',
  'IDEMPOTENCY_KEY_IN_USE',
  'CONCURRENT_UPDATE',
] as const;

export const PAYMENTS = defineGroup<PaymentsServices>()(
  'payments',
  {
    // A queued payment's approval gets a one-time expiry schedule. A batch of up to 100 payments runs its items one after the other: nearly API Gateway's 30 s integration limit.
    grants: ['scheduler:create'],
    timeoutS: 28,
  },
  [
    op({
      name: 'createPayment',
      summary: 'Pay from a wallet',
      description:
        "Moves money from one wallet to another wallet or a closed-loop merchant, at once, under the paying wallet's spend policies. If a policy needs human approval the payment is queued: the answer is 202 APPROVAL_REQUIRED with the approval id to check later. Send an idempotency key so a retry never pays twice.",
      access: 'key',
      permission: 'payments:write',
      audit: AUDIT.payment.create,
      events: ['payment.posted', 'approval.requested'],
      idempotency: 'key',
      http: { method: 'POST', path: '/v1/payments', status: 200 },
      mcp: { tool: 'create_payment', hints: HINTS.money },
      body: () => z.strictObject(paymentFields()),
      output: 'paymentView',
      errors: ['APPROVAL_REQUIRED', ...PAYMENT_ERRORS],
      run: ({ services, auth, audit, body, idempotencyKey }) =>
        services.payments.create(auth, audit, { ...body, idempotencyKey }),
    }),
    list({
      name: 'listPayments',
      summary: 'List payments',
      description:
        'Payments sent and received by the organization (or by one wallet), newest first, optionally by status.',
      access: 'key',
      permission: 'payments:read',
      http: { method: 'GET', path: '/v1/payments', status: 200 },
      mcp: { tool: 'list_payments', hints: HINTS.read },
      filters: () => ({
        walletId: z.optional(walletId('Only payments sent or received by this wallet.')),
        status: z.optional(describe(z.enum(PAYMENT_STATUSES), 'Only payments in this status.')),
      }),
      output: 'paymentPageView',
      errors: ['WALLET_NOT_FOUND', 'ENVIRONMENT_MISMATCH'],
      list: async ({ services, auth, query }, page): Promise<Page<ViewedPayment>> => {
        const found = await services.payments.list(auth, { walletId: query.walletId, status: query.status }, page);
        return { ...found, items: found.items.map(viewedBy(auth)) };
      },
      present: presentViewed,
    }),
    op({
      name: 'createBatch',
      summary: 'Pay several recipients',
      description: `Up to ${MAX_BATCH_SIZE} payments, each run on its own with its own idempotency key (its own, or \`<batch key>#<index>\`). All posted: 200 with the payments; otherwise 207 BATCH_PARTIAL_FAILURE with every item's result. With a batch key the whole answer is kept and replayed.`,
      access: 'key',
      permission: 'payments:write',
      audit: AUDIT.payment.create,
      events: ['payment.posted', 'approval.requested'],
      idempotency: 'key',
      http: { method: 'POST', path: '/v1/payments/batch', status: 200 },
      mcp: { tool: 'create_payment_batch', hints: HINTS.money },
      body: () =>
        z.strictObject({
          payments: describe(
            z
              .array(z.strictObject(paymentFields(batchItemIdempotencyKey)))
              .check(
                z.minLength(1, 'must hold at least one payment'),
                z.maxLength(MAX_BATCH_SIZE, `must hold at most ${MAX_BATCH_SIZE} payments`),
              ),
            `The payments, 1 to ${MAX_BATCH_SIZE}, run in order.`,
          ),
          idempotencyKey: idempotencyKey(),
        }),
      output: 'batchPaymentsView',
      errors: ['BATCH_PARTIAL_FAILURE', 'IDEMPOTENCY_KEY_REUSE', 'IDEMPOTENCY_KEY_IN_USE'],
      run: ({ services, auth, audit, body, idempotencyKey }) =>
        services.payments.batch(auth, audit, body.payments, idempotencyKey),
    }),
    op({
      name: 'getPayment',
      summary: 'Get a payment',
      description: 'One payment, seen by the paying and the receiving organization.',
      access: 'key',
      permission: 'payments:read',
      http: { method: 'GET', path: '/v1/payments/{id}', status: 200 },
      params: { id: 'The payment id (`txn_...`).' },
      mcp: { tool: 'get_payment', hints: HINTS.read },
      output: 'paymentView',
      errors: ['TRANSACTION_NOT_FOUND', 'ENVIRONMENT_MISMATCH'],
      run: async ({ services, auth, params }) => viewedBy(auth)(await services.payments.get(auth, params.id!)),
      present: presentViewed,
    }),
    op({
      name: 'reversePayment',
      summary: 'Reverse a payment',
      description:
        'Gives a posted payment back in full: the receiving side pays the same amount back. Only the receiving organization may reverse, once.',
      access: 'key',
      permission: 'payments:write',
      audit: AUDIT.payment.reverse,
      events: ['payment.reversed'],
      idempotency: 'key',
      http: { method: 'POST', path: '/v1/payments/{id}/reverse', status: 200 },
      params: { id: 'The payment id (`txn_...`).' },
      mcp: { tool: 'reverse_payment', hints: HINTS.money },
      body: () => z.strictObject({ idempotencyKey: idempotencyKey() }),
      output: 'paymentView',
      errors: [
        'TRANSACTION_NOT_FOUND',
        'REVERSAL_NOT_ALLOWED',
        'INSUFFICIENT_FUNDS',
        'WALLET_FROZEN',
        'ENVIRONMENT_MISMATCH',
        'IDEMPOTENCY_KEY_REUSE',
        'IDEMPOTENCY_KEY_IN_USE',
        'CONCURRENT_UPDATE',
      ],
      run: ({ services, auth, audit, params, idempotencyKey }) =>
        services.payments.reverse(auth, audit, params.id!, idempotencyKey),
    }),
    payInvoiceFromWallet,
    op({
      name: 'putMerchantProfile',
      summary: 'Register a merchant profile',
      description:
        "Registers (or updates) the organization's merchant domain, so agents can pay `merchant:<domain>` into the given wallet.",
      access: 'organization',
      permission: 'wallets:write',
      audit: AUDIT.merchant.upsert,
      http: { method: 'PUT', path: '/v1/merchant-profile', status: 200 },
      mcp: { tool: 'put_merchant_profile', hints: HINTS.update },
      body: () =>
        z.strictObject({
          domain: describe(
            z
              .string()
              .check(
                z.trim(),
                z.toLowerCase(),
                z.maxLength(253, 'must be a domain name such as shop.example.com'),
                z.regex(/^(?=.{3,253}$)([a-z0-9-]+\.)+[a-z]{2,}$/, 'must be a domain name such as shop.example.com'),
              ),
            "The merchant's domain name, such as shop.example.com (stored lower-case).",
          ),
          displayName: name(`Name shown to payers (1-${MAX_NAME_LENGTH} characters).`),
          walletId: walletId("The wallet that receives the merchant's payments."),
          closedLoop: describe(z.boolean(), 'Whether the merchant accepts closed-loop (wallet to wallet) payments.'),
        }),
      output: 'merchantView',
      errors: ['WALLET_NOT_FOUND', 'INVALID_STATE', 'ENVIRONMENT_MISMATCH'],
      run: ({ services, auth, audit, body }) => services.merchants.upsert(auth, audit, body),
      present: presentMerchant,
    }),
  ],
);
