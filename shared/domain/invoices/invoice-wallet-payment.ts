import Big from 'big.js';
import { scopeOf } from '../access.js';
import { AUDIT, type AuditAction } from '../audit/actions.js';
import { auditChange, eventChange } from '../audit/audit.js';
import { ApiError, notFound } from '../errors.js';
import { HOSTED_PATHS, type HostedUrl } from '../hosted-urls.js';
import type { IdempotentResponse } from '../idempotency/idempotency.js';
import type { IdGenerator } from '../ids.js';
import { formatAmount } from '../money.js';
import type { CreatePaymentInput } from '../payments/payment-creation.js';
import type { PaymentRider, PaymentRiders, RiderChange } from '../payments/payment-rider.js';
import { canTransition } from '../state-table.js';
import type { Actor, RequestContext } from '../tenancy.js';
import type { Transaction } from '../types.js';
import { invoiceFeesOf } from './invoice-fees.js';
import { INVOICE_STATES } from './invoice-states.js';
import { presentInvoice } from './invoice-view.js';
import type { InvoiceStore } from './ports.js';
import type { Invoice } from './types.js';

/** The invoice reads a wallet payment needs (the invoice store's). */
export type InvoiceReader = Pick<InvoiceStore, 'getInvoice' | 'getInvoiceBySlug'>;

export interface InvoiceWalletPaymentDeps {
  invoices: InvoiceReader;
  ids: IdGenerator;
  hostedUrl: HostedUrl;
}

/** The payment path: the payment service's `create` (policies, approvals, spend, idempotency). */
export type CreatePaymentWithRider = (
  ctx: RequestContext,
  action: AuditAction,
  input: CreatePaymentInput,
) => Promise<IdempotentResponse>;

export interface PayFromWalletInput {
  walletId: string;
  idempotencyKey?: string | undefined;
}

/**
 * Who the invoice's own audit entry names: the paying key when it is of the invoice's organization;
 * a payer of another organization is named by its wallet in the metadata, never by its key id
 * (one organization's key ids are not shown to another).
 */
const FOREIGN_PAYER: Actor = { actorType: 'SYSTEM', actorId: 'invoice-wallet-payment', ipAddress: '0.0.0.0' };

/**
 * The rider of a payment that pays `invoice` from a wallet (payments/payment-rider.ts): the spec's
 * Wallet fee row (0.25% service, half-up to the cent, no provider fee) withheld from the invoice's
 * wallet, and, in the posting's transaction, the invoice FINALIZED -> PAID (amountPaid, paidAt,
 * paymentMethodType `wallet`, fees, net, the payment's id; conditioned on FINALIZED with no bank
 * debit in flight), its `invoice.pay` audit entry and its `invoice.paid` event.
 */
export function walletPaymentRider(invoice: Invoice, deps: Omit<InvoiceWalletPaymentDeps, 'invoices'>): PaymentRider {
  const total = new Big(invoice.total);
  const fees = invoiceFeesOf('wallet', total);
  return {
    invoiceId: invoice.id,
    fee: fees.fees,
    refusal() {
      if (!canTransition(INVOICE_STATES, invoice.status, 'pay'))
        return new ApiError(
          'INVALID_STATE',
          `The invoice is ${invoice.status}; only a FINALIZED invoice can be paid.`,
          {
            status: invoice.status,
          },
        );
      if (invoice.pendingPayment)
        return new ApiError('INVALID_STATE', 'A bank debit of this invoice is in flight; wait for it to settle.', {
          status: invoice.status,
        });
      return undefined;
    },
    changesOnPost(posted: Transaction, actor: Actor): RiderChange[] {
      const at = posted.postedAt ?? posted.createdAt;
      const set: Partial<Invoice> = {
        amountPaid: invoice.total,
        paidAt: at,
        paymentMethodType: 'wallet',
        fees: { provider: formatAmount(fees.provider), service: formatAmount(fees.service) },
        netAmount: formatAmount(fees.net),
        paymentTransactionId: posted.id,
        payerWalletId: posted.from,
      };
      const paid: Invoice = { ...invoice, ...set, status: INVOICE_STATES.pay.to };
      const scope = { organizationId: invoice.organizationId, environment: invoice.environment };
      const ownPayer = posted.organizationId === invoice.organizationId;
      return [
        { type: 'transitionInvoice', invoiceId: invoice.id, trigger: 'pay', set, pending: 'none' },
        auditChange(
          {
            ...scope,
            actor: ownPayer ? actor : FOREIGN_PAYER,
            action: AUDIT.invoice.pay,
            resource: 'invoice',
            resourceId: invoice.id,
            walletId: invoice.walletId,
            metadata: {
              status: paid.status,
              total: invoice.total,
              number: invoice.number,
              paymentMethodType: 'wallet',
              fees: set.fees,
              netAmount: set.netAmount,
              transactionId: posted.id,
              payerWalletId: posted.from,
            },
            createdAt: at,
          },
          deps.ids,
        ),
        eventChange(
          {
            ...scope,
            type: 'invoice.paid',
            data: presentInvoice({ ...paid, hostedUrl: deps.hostedUrl(HOSTED_PATHS.invoice(invoice.slug!)) }),
            createdAt: at,
          },
          deps.ids,
        ),
      ];
    },
  };
}

/** For approvals: the rider of a queued payment, from the invoice as it is now. */
export function invoiceRiders(deps: InvoiceWalletPaymentDeps): PaymentRiders {
  return {
    async riderOf(queued) {
      const invoice = await deps.invoices.getInvoice(queued.invoiceId);
      if (!invoice) throw new Error(`queued payment ${queued.id} pays invoice ${queued.invoiceId}, which is gone`);
      return walletPaymentRider(invoice, deps);
    },
  };
}

/**
 * `POST /v1/invoices/pay/{slug}/wallet` (decisions.md section 6): an Allowance wallet pays a
 * FINALIZED invoice through the payment path. The slug is the capability: the payer may be of any
 * organization of the same environment; its own key decides from which of its wallets (an agent
 * key: its own only). Answers what the payment answers: 200 the posted payment, 202
 * APPROVAL_REQUIRED (the invoice becomes PAID when the approval posts it), or its refusal.
 */
export function createInvoiceWalletPayments(
  deps: InvoiceWalletPaymentDeps & { createPayment: CreatePaymentWithRider },
) {
  async function payFromWallet(
    ctx: RequestContext,
    action: AuditAction,
    slug: string,
    input: PayFromWalletInput,
  ): Promise<IdempotentResponse> {
    const scope = scopeOf(ctx.principal);
    const invoice = await deps.invoices.getInvoiceBySlug(slug);
    if (!invoice) throw notFound('INVOICE_NOT_FOUND');
    // The other environment: the caller's own invoice says so, another organization's is absent.
    if (invoice.environment !== scope.environment) {
      if (invoice.organizationId === scope.organizationId) throw new ApiError('ENVIRONMENT_MISMATCH');
      throw notFound('INVOICE_NOT_FOUND');
    }
    return deps.createPayment(ctx, action, {
      from: input.walletId,
      to: invoice.walletId,
      amount: invoice.total,
      description: `Invoice ${invoice.number ?? invoice.id}`,
      idempotencyKey: input.idempotencyKey,
      rider: walletPaymentRider(invoice, deps),
    });
  }

  return { payFromWallet };
}

export type InvoiceWalletPayments = ReturnType<typeof createInvoiceWalletPayments>;
