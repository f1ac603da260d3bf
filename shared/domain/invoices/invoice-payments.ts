import Big from 'big.js';
import { AUDIT, type AuditAction } from '../audit/actions.js';
import { ApiError, notFound } from '../errors.js';
import type { IdempotencyChange } from '../idempotency/ports.js';
import { formatAmount } from '../money.js';
import type { PaymentMethodInput, PaymentMethodType } from '../payment-methods/processor.js';
import { canTransition } from '../state-table.js';
import type { Actor, RequestContext } from '../tenancy.js';
import { invoiceFeesOf } from './invoice-fees.js';
import { INVOICE_PAGES, type InvoiceKernel, type InvoiceServiceDeps } from './invoice-kernel.js';
import { invoicePayment, invoiceRefund } from './invoice-postings.js';
import { declineRetryAfterS, nextDeclines } from './invoice-rules.js';
import { INVOICE_STATES } from './invoice-states.js';
import type { PayableInvoice, PresentableInvoice } from './invoice-view.js';
import type { Invoice } from './types.js';

/** Rounds of counting a decline against concurrent declines of the same invoice. */
const MAX_DECLINE_ROUNDS = 5;

const SETTLEMENT_ACTOR: Actor = { actorType: 'SYSTEM', actorId: 'invoice-settlement', ipAddress: '0.0.0.0' };

/** A method to charge now: a saved one (customers' paymentMethodForCharge) or one just tokenized at checkout. */
export interface MethodToCharge {
  type: PaymentMethodType;
  brand: string;
  last4: string;
  processorToken: string;
  paymentMethodId?: string;
}

/** Who pays and what to store with the answer (the one-off charge's idempotency answer). */
export interface ChargeOptions {
  actor: Actor;
  /** The processor's reference of the charge (charges are idempotent by it). */
  reference: string;
  /** The answer a key replays, written in the transaction that records the outcome (not a decline: runIdempotent stores that). */
  answer?: (invoice: PresentableInvoice) => IdempotencyChange;
  /** Details of a PAYMENT_DECLINED besides `declineCode`. */
  declineDetails?: Record<string, unknown>;
}

/**
 * Paying invoices (interface-spec 3.5, decisions.md sections 2 and 6): a card is charged through
 * the processor, then ONE transaction posts INVOICE_PAYMENT and moves the invoice FINALIZED ->
 * PAID; a second payment loses on the state condition and its charge is refunded. A bank debit is
 * `pending`: recorded on the invoice until the ACH rail settles it (`settlePendingPayment`).
 */
export function invoicePayments(deps: InvoiceServiceDeps, kernel: InvoiceKernel) {
  const { store, clock, ids, processors, parties, log } = deps;
  const { withUrl, load, invalidState, auditOf, eventOf } = kernel;

  /** The paid invoice's fields: amountPaid, fees, net, how (fee row by method). */
  function paidFields(invoice: Invoice, type: PaymentMethodType, processorChargeId: string, txn: string, at: string) {
    const total = new Big(invoice.total);
    const fees = invoiceFeesOf(type, total);
    const set: Partial<Invoice> = {
      amountPaid: invoice.total,
      paidAt: at,
      paymentMethodType: type,
      fees: { provider: formatAmount(fees.provider), service: formatAmount(fees.service) },
      netAmount: formatAmount(fees.net),
      processorChargeId,
      paymentTransactionId: txn,
    };
    return { set, posting: invoicePayment(invoice, txn, total, fees, at) };
  }

  /** Gives a charge back when its payment could not be recorded (another payment won; the wallet was closed). */
  async function returnCharge(invoice: Invoice, processorChargeId: string, reference: string): Promise<void> {
    try {
      await processors(invoice.environment).refund({
        processorChargeId,
        amount: new Big(invoice.total),
        reference: `${reference}:return`,
      });
    } catch (error) {
      log.error(`could not return charge ${processorChargeId} of invoice ${invoice.id}`, error);
    }
  }

  /** A decline's audit and event, with the invoice's decline count (re-read when a concurrent decline counted first). */
  async function recordDecline(invoice: Invoice, changes: Parameters<typeof store.commit>[0]): Promise<void> {
    let current: Invoice | undefined = invoice;
    for (let attempt = 1; ; attempt++) {
      const previousCount = current.declines?.count ?? 0;
      const declines = nextDeclines(current.declines, clock.now());
      try {
        await store.commit([
          { type: 'recordInvoiceDecline', invoiceId: invoice.id, declines, previousCount },
          ...changes,
        ]);
        return;
      } catch (error) {
        if (!(error instanceof ApiError) || error.code !== 'CONCURRENT_UPDATE' || attempt >= MAX_DECLINE_ROUNDS)
          throw error;
        current = await store.getInvoice(invoice.id);
        if (!current) throw error;
      }
    }
  }

  /**
   * After a lost commit: the invoice as stored, when another commit recorded this very charge (a
   * retry with the same key charged the same processor reference). That charge paid the invoice
   * and is never returned; a keyed request answers IDEMPOTENCY_KEY_IN_USE so its key's first
   * answer is replayed (runIdempotent).
   */
  async function recordedElsewhere(
    invoice: Invoice,
    processorChargeId: string,
    options: ChargeOptions,
  ): Promise<PresentableInvoice | undefined> {
    const current = await store.getInvoice(invoice.id);
    const recorded =
      current?.processorChargeId === processorChargeId ||
      current?.pendingPayment?.processorChargeId === processorChargeId;
    if (!current || !recorded) return undefined;
    if (options.answer)
      throw new ApiError(
        'IDEMPOTENCY_KEY_IN_USE',
        'A request with this idempotency key is still being processed; retry shortly.',
      );
    return withUrl(current);
  }

  /** Commits the recording of a charge; on failure the charge is given back unless another commit recorded it. */
  async function commitOrReturn(
    invoice: Invoice,
    processorChargeId: string,
    options: ChargeOptions,
    changes: Parameters<typeof store.commit>[0],
  ): Promise<PresentableInvoice | undefined> {
    try {
      await store.commit(changes);
      return undefined;
    } catch (error) {
      const elsewhere = await recordedElsewhere(invoice, processorChargeId, options);
      if (elsewhere) return elsewhere;
      await returnCharge(invoice, processorChargeId, options.reference);
      throw error;
    }
  }

  /**
   * Charges a FINALIZED invoice on a method. Succeeded: PAID (posting, state, audit, event: one
   * transaction). Pending (bank): recorded as the invoice's pendingPayment. Declined: the invoice
   * stays FINALIZED, `invoice.payment_failed` emitted and audited, 402 PAYMENT_DECLINED.
   */
  async function chargeInvoice(
    invoice: Invoice,
    method: MethodToCharge,
    action: AuditAction,
    options: ChargeOptions,
  ): Promise<PresentableInvoice> {
    if (!canTransition(INVOICE_STATES, invoice.status, 'pay') || invoice.pendingPayment)
      throw invoice.pendingPayment
        ? new ApiError('INVALID_STATE', 'A bank debit of this invoice is in flight; wait for it to settle.', {
            status: invoice.status,
          })
        : invalidState(invoice, 'only a FINALIZED invoice can be paid');
    const retryAfter = declineRetryAfterS(invoice.declines, clock.now());
    if (retryAfter !== undefined)
      throw new ApiError('RATE_LIMIT_EXCEEDED', 'Too many declined payments of this invoice; retry later.', {
        retryAfter,
      });
    const result = await processors(invoice.environment).charge({
      processorToken: method.processorToken,
      amount: new Big(invoice.total),
      currency: 'USD',
      reference: options.reference,
    });
    const at = clock.now().toISOString();
    const how = { paymentMethodType: method.type, brand: method.brand, last4: method.last4 };
    if (result.outcome === 'declined') {
      await recordDecline(invoice, [
        auditOf(options.actor, invoice, AUDIT.invoice.paymentFailed, at, { ...how, declineCode: result.declineCode }),
        eventOf('invoice.payment_failed', invoice, at),
      ]);
      throw new ApiError('PAYMENT_DECLINED', undefined, { ...options.declineDetails, declineCode: result.declineCode });
    }
    if (result.outcome === 'pending') {
      const pendingPayment = {
        paymentMethodType: 'us_bank_account' as const,
        processorChargeId: result.processorChargeId,
        brand: method.brand,
        last4: method.last4,
        ...(method.paymentMethodId ? { paymentMethodId: method.paymentMethodId } : {}),
        startedAt: at,
      };
      const pending = withUrl({ ...invoice, pendingPayment });
      // A debit whose recording loses (another payment won, the invoice was voided) is given back.
      const elsewhere = await commitOrReturn(invoice, result.processorChargeId, options, [
        { type: 'startInvoicePendingPayment', invoiceId: invoice.id, pendingPayment },
        auditOf(options.actor, invoice, action, at, { ...how, pending: true }),
        ...(options.answer ? [options.answer(pending)] : []),
      ]);
      // Recorded by another commit (a keyed retry's): that commit's request scheduled the settlement.
      if (elsewhere) return elsewhere;
      await deps.onPendingPayment?.(pending);
      return pending;
    }
    const txn = ids('transaction');
    const { set, posting } = paidFields(invoice, method.type, result.processorChargeId, txn, at);
    const paid: Invoice = { ...invoice, ...set, status: INVOICE_STATES.pay.to };
    const elsewhere = await commitOrReturn(invoice, result.processorChargeId, options, [
      { type: 'transitionInvoice', invoiceId: invoice.id, trigger: 'pay', set, pending: 'none' },
      posting,
      auditOf(options.actor, paid, action, at, { ...how, fees: set.fees, netAmount: set.netAmount }),
      eventOf('invoice.paid', paid, at),
      ...(options.answer ? [options.answer(withUrl(paid))] : []),
    ]);
    return elsewhere ?? withUrl(paid);
  }

  /** Who acts on the public routes: the invoice's customer (a person, no key), from the request's address. */
  const customerActor = (ctx: RequestContext, invoice: Invoice): Actor => ({
    actorType: 'USER',
    actorId: invoice.customerId,
    ipAddress: ctx.actor.ipAddress,
  });

  async function bySlug(slug: string): Promise<Invoice> {
    const invoice = await store.getInvoiceBySlug(slug);
    if (!invoice) throw notFound('INVOICE_NOT_FOUND');
    return invoice;
  }

  /** The customer's view of an invoice (its public page): the merchant's and the customer's names, the URLs. */
  async function payable(invoice: Invoice): Promise<PayableInvoice> {
    const slug = invoice.slug!;
    const [merchantName, customer] = await Promise.all([
      parties.merchantName(invoice.organizationId),
      parties.customerOf(invoice, invoice.customerId),
    ]);
    return {
      ...invoice,
      hostedUrl: deps.hostedUrl(INVOICE_PAGES.invoice(slug)),
      checkoutUrl: deps.hostedUrl(INVOICE_PAGES.checkout(slug)),
      merchantName,
      customerName: customer?.name ?? '',
    };
  }

  const getPayable = async (slug: string) => payable(await bySlug(slug));

  async function checkoutBySlug(ctx: RequestContext, action: AuditAction, slug: string): Promise<{ url: string }> {
    const invoice = await bySlug(slug);
    if (invoice.status !== 'FINALIZED') throw invalidState(invoice, 'only a FINALIZED invoice can be paid');
    await store.commit([auditOf(customerActor(ctx, invoice), invoice, action, clock.now().toISOString())]);
    return { url: deps.hostedUrl(INVOICE_PAGES.checkout(slug)) };
  }

  /** The checkout page's submit: the method typed by the customer, tokenized (validated) and charged once. */
  async function payBySlug(
    ctx: RequestContext,
    action: AuditAction,
    slug: string,
    input: PaymentMethodInput,
  ): Promise<PayableInvoice> {
    const invoice = await bySlug(slug);
    if (!canTransition(INVOICE_STATES, invoice.status, 'pay'))
      throw invalidState(invoice, 'only a FINALIZED invoice can be paid');
    const method = await processors(invoice.environment).tokenize(input);
    const paid = await chargeInvoice(invoice, method, action, {
      actor: customerActor(ctx, invoice),
      reference: ids('transaction'),
    });
    return payable(paid);
  }

  /**
   * The end of a bank debit (the hook the ACH settlement calls when the rail's settlement time has
   * come): asks the processor, then either pays the invoice (posting + PAID, one transaction,
   * conditioned on this very debit being in flight) or clears the debit and emits
   * `invoice.payment_failed` (the invoice stays FINALIZED, payable again). Nothing in flight: the
   * invoice as it is (a repeated call changes nothing).
   */
  async function settlePendingPayment(invoiceId: string): Promise<Invoice> {
    const invoice = await store.getInvoice(invoiceId);
    if (!invoice) throw notFound('INVOICE_NOT_FOUND', invoiceId);
    const pending = invoice.pendingPayment;
    if (!pending || invoice.status !== 'FINALIZED') return invoice;
    const outcome = await processors(invoice.environment).settle(pending.processorChargeId);
    const at = clock.now().toISOString();
    const how = { paymentMethodType: pending.paymentMethodType, brand: pending.brand, last4: pending.last4 };
    const fail = async (declineCode: string) => {
      const failed = { ...invoice };
      delete failed.pendingPayment;
      await store.commit([
        { type: 'clearInvoicePendingPayment', invoiceId, processorChargeId: pending.processorChargeId },
        auditOf(SETTLEMENT_ACTOR, failed, AUDIT.invoice.paymentFailed, at, { ...how, declineCode }),
        eventOf('invoice.payment_failed', failed, at),
      ]);
      return failed;
    };
    if (outcome === 'failed') return fail('bank_debit_failed');
    const txn = ids('transaction');
    const { set, posting } = paidFields(invoice, pending.paymentMethodType, pending.processorChargeId, txn, at);
    const paid: Invoice = { ...invoice, ...set, status: INVOICE_STATES.pay.to };
    delete paid.pendingPayment;
    try {
      await store.commit([
        {
          type: 'transitionInvoice',
          invoiceId,
          trigger: 'pay',
          set,
          pending: { processorChargeId: pending.processorChargeId },
        },
        posting,
        auditOf(SETTLEMENT_ACTOR, paid, AUDIT.invoice.pay, at, { ...how, fees: set.fees, netAmount: set.netAmount }),
        eventOf('invoice.paid', paid, at),
      ]);
    } catch (error) {
      // A failure that will not go away (the wallet was closed while the debit travelled): the
      // customer's money goes back and the debit is cleared; anything else is retried by the rail.
      const wallet = await store.getWallet(invoice.walletId);
      if (wallet && wallet.deletedAt === undefined) throw error;
      await returnCharge(invoice, pending.processorChargeId, `${invoice.id}:settle`);
      return fail('wallet_closed');
    }
    return paid;
  }

  /**
   * PAID -> REFUNDED: the wallet pays the whole total back (fees are not returned;
   * INSUFFICIENT_FUNDS when short, nothing changes), then the processor returns the charge to the
   * customer's method (idempotent by reference; a failure there is logged for reconciliation).
   */
  async function refund(ctx: RequestContext, action: AuditAction, invoiceId: string): Promise<PresentableInvoice> {
    const invoice = await load(ctx, invoiceId);
    if (!canTransition(INVOICE_STATES, invoice.status, 'refund'))
      throw invalidState(invoice, 'only a PAID invoice can be refunded');
    const at = clock.now().toISOString();
    const txn = ids('transaction');
    const refunded: Invoice = {
      ...invoice,
      status: INVOICE_STATES.refund.to,
      refundedAt: at,
      refundTransactionId: txn,
    };
    await store.commit([
      {
        type: 'transitionInvoice',
        invoiceId,
        trigger: 'refund',
        set: { refundedAt: at, refundTransactionId: txn },
      },
      invoiceRefund(invoice, txn, new Big(invoice.total), at),
      auditOf(ctx.actor, refunded, action, at),
      eventOf('invoice.refunded', refunded, at),
    ]);
    if (invoice.processorChargeId) {
      try {
        await processors(invoice.environment).refund({
          processorChargeId: invoice.processorChargeId,
          amount: new Big(invoice.total),
          reference: `${invoice.id}:refund`,
        });
      } catch (error) {
        log.error(`could not refund charge ${invoice.processorChargeId} of invoice ${invoice.id}`, error);
      }
    }
    return withUrl(refunded);
  }

  return { chargeInvoice, getPayable, checkoutBySlug, payBySlug, settlePendingPayment, refund };
}
