import * as z from 'zod/mini';
import { AUDIT } from '../domain/audit/actions.js';
import type { InvoiceWalletPayments } from '../domain/invoices/invoice-wallet-payment.js';
import { HINTS, operation } from './define.js';
import { idempotencyKey, walletId } from './fields.js';

/** What the payments group needs to pay an invoice from a wallet (shared/runtime/services/invoice-wallet-payments.ts). */
export interface InvoiceWalletPaymentServices {
  invoiceWalletPayments: InvoiceWalletPayments;
}

const op = operation<InvoiceWalletPaymentServices>();

/**
 * `POST /v1/invoices/pay/{slug}/wallet` (decisions.md section 6, docs/api.md "Paying an invoice
 * from a wallet"): a payment, so it is served by the payments group (its function already holds
 * the payment path and the approval expiry grant) and audited as one (`payment.created`, plus the
 * invoice's own `invoice.pay` written with it).
 */
export const payInvoiceFromWallet = op({
  name: 'payInvoiceFromWallet',
  summary: 'Pay an invoice from a wallet',
  description:
    "Pays a FINALIZED invoice (found by the slug of its hostedUrl, of any organization of the same environment) from one of the caller's wallets (an agent key: its own wallet only). It is a payment: the paying wallet's spend policies apply (frozen, deny rules, approval, funds) and its period spend counts the total. The paying wallet is debited the invoice total; the invoice's wallet is credited the total minus the 0.25% service fee (half-up to the cent), which goes to the fee income; the invoice becomes PAID in the same transaction. A policy asking for approval answers 202 APPROVAL_REQUIRED: the invoice stays FINALIZED and becomes PAID when the approval posts the payment. Send an idempotency key so a retry never pays twice.",
  access: 'key',
  permission: 'payments:write',
  audit: AUDIT.payment.create,
  events: ['payment.posted', 'invoice.paid', 'approval.requested'],
  idempotency: 'key',
  http: { method: 'POST', path: '/v1/invoices/pay/{slug}/wallet', status: 200 },
  params: { slug: "The invoice's public slug (the last segment of its `hostedUrl`)." },
  mcp: { tool: 'pay_invoice', hints: HINTS.money },
  body: () =>
    z.strictObject({
      walletId: walletId('The paying wallet (`wal_...`); an agent key may pay only from its own wallet.'),
      idempotencyKey: idempotencyKey(),
    }),
  output: 'paymentView',
  errors: [
    'APPROVAL_REQUIRED',
    'INVOICE_NOT_FOUND',
    'INVALID_STATE',
    'INSUFFICIENT_FUNDS',
    'POLICY_DENIED',
    'RECIPIENT_NOT_ALLOWED',
    'WALLET_FROZEN',
    'WALLET_NOT_FOUND',
    'SELF_PAYMENT',
    'ENVIRONMENT_MISMATCH',
    'IDEMPOTENCY_KEY_REUSE',
    'IDEMPOTENCY_KEY_IN_USE',
    'CONCURRENT_UPDATE',
  ],
  run: ({ services, auth, audit, params, body, idempotencyKey }) =>
    services.invoiceWalletPayments.payFromWallet(auth, audit, params.slug!, {
      walletId: body.walletId,
      idempotencyKey,
    }),
});
