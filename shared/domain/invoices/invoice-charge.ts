import { assertAccessible, scopeOf } from '../access.js';
import type { AuditAction } from '../audit/actions.js';
import { ApiError, validationError } from '../errors.js';
import {
  answerChange,
  claimOf,
  fingerprintOf,
  runIdempotent,
  type IdempotentResponse,
  type KeyClaim,
} from '../idempotency/idempotency.js';
import { derivedId } from '../ledger/derived-ids.js';
import { formatAmount, parseAmount } from '../money.js';
import type { RequestContext } from '../tenancy.js';
import type { InvoiceKernel, InvoiceServiceDeps } from './invoice-kernel.js';
import type { invoiceLifecycle } from './invoice-lifecycle.js';
import type { invoicePayments } from './invoice-payments.js';
import { assertInvoiceTotal } from './invoice-rules.js';
import { presentInvoice, type PresentableInvoice } from './invoice-view.js';
import type { Invoice } from './types.js';

export interface ChargeInput {
  walletId: string;
  customerId: string;
  amount: unknown;
  description: string;
  paymentMethodId?: string | undefined;
}

const CHARGE_STATUS = 201;

/**
 * The one-off charge (interface-spec 4.9 `POST /v1/invoices/charge`, decisions.md sections 3 and
 * 6): creates an invoice of one line, finalizes it and charges the customer's default (or given)
 * saved method. Idempotent by key: the same key and parameters answer the first answer again,
 * a PAYMENT_DECLINED refusal included (stored like a success); other parameters 409
 * IDEMPOTENCY_KEY_REUSE. Under a key the invoice's id and the processor's charge reference are
 * derived from the key's slot, so a retry after a crash resumes the same invoice and can not
 * charge twice.
 */
export function invoiceCharge(
  deps: InvoiceServiceDeps,
  kernel: InvoiceKernel,
  lifecycle: ReturnType<typeof invoiceLifecycle>,
  payments: ReturnType<typeof invoicePayments>,
) {
  const { store, clock, ids, parties } = deps;

  async function execute(
    ctx: RequestContext,
    action: AuditAction,
    input: ChargeInput & { amountText: string },
    slot: { slotId: string; claim: KeyClaim } | undefined,
  ): Promise<IdempotentResponse> {
    const scope = scopeOf(ctx.principal);
    const wallet = assertAccessible(ctx.principal, await store.getWallet(input.walletId), input.walletId);
    if (wallet.status !== 'ACTIVE') throw new ApiError('WALLET_FROZEN', undefined, { walletId: wallet.id });
    const customer = await parties.customerFor(ctx, input.customerId);
    const method = await parties.paymentMethodForCharge(scope, customer.id, input.paymentMethodId);
    const invoiceId = slot ? await derivedId('invoice', `charge|${slot.slotId}`) : ids('invoice');
    /** A step a concurrent request with the key did first (created, finalized): IN_USE, runIdempotent answers or resumes. */
    const raced = async <T>(step: () => Promise<T>, done: (found: Invoice | undefined) => boolean): Promise<T> => {
      try {
        return await step();
      } catch (error) {
        if (slot && done(await store.getInvoice(invoiceId)))
          throw new ApiError(
            'IDEMPOTENCY_KEY_IN_USE',
            'A request with this idempotency key is still being processed.',
            {
              idempotencyKey: slot.claim.key,
            },
          );
        throw error;
      }
    };
    let invoice = slot ? await store.getInvoice(invoiceId) : undefined;
    if (!invoice)
      invoice = await raced(
        () =>
          lifecycle.create(
            ctx,
            null,
            {
              walletId: wallet.id,
              customerId: customer.id,
              lineItems: [{ description: input.description, quantity: 1, unitPrice: input.amountText }],
            },
            invoiceId,
          ),
        (found) => found !== undefined,
      );
    const draft = invoice;
    if (draft.status === 'DRAFT')
      invoice = await raced(
        () => lifecycle.finalize(ctx, null, draft.id),
        (found) => found !== undefined && found.status !== 'DRAFT',
      );
    const answer = (result: PresentableInvoice) =>
      slot ? answerChange(slot.slotId, slot.claim, CHARGE_STATUS, presentInvoice(result), clock.now()) : undefined;
    let charged: PresentableInvoice;
    if (invoice.status === 'FINALIZED' && !invoice.pendingPayment) {
      charged = await payments.chargeInvoice(invoice, { ...method, paymentMethodId: method.id }, action, {
        actor: ctx.actor,
        reference: slot ? `${invoice.id}:charge` : ids('transaction'),
        declineDetails: { invoiceId: invoice.id },
        ...(slot ? { answer: (result: PresentableInvoice) => answer(result)! } : {}),
      });
    } else {
      // A retry after the first request recorded its outcome but died before storing the answer.
      charged = kernel.withUrl(invoice);
      const stored = answer(charged);
      if (stored) await store.commit([stored]);
    }
    return { status: CHARGE_STATUS, body: presentInvoice(charged), replayed: false };
  }

  async function charge(
    ctx: RequestContext,
    action: AuditAction,
    input: ChargeInput,
    idempotencyKey?: string,
  ): Promise<IdempotentResponse> {
    const scope = scopeOf(ctx.principal);
    const amount = parseAmount(input.amount, { field: 'amount' });
    assertInvoiceTotal(amount, 'amount');
    if (input.description.length === 0) throw validationError('description', 'must not be empty');
    const amountText = formatAmount(amount);
    const params = {
      walletId: input.walletId,
      customerId: input.customerId,
      amount: amountText,
      description: input.description,
      paymentMethodId: input.paymentMethodId,
      scope: ctx.principal.walletId ?? 'organization',
    };
    const claim =
      idempotencyKey === undefined
        ? undefined
        : await claimOf(scope, idempotencyKey, fingerprintOf('chargeCustomer', params));
    return runIdempotent(store, claim, clock.now(), () => ids('transaction'), {
      execute: (slotId, keyClaim) =>
        execute(ctx, action, { ...input, amountText }, keyClaim ? { slotId, claim: keyClaim } : undefined),
    });
  }

  return { charge };
}
