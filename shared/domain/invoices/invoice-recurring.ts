import { AUDIT, type AuditAction } from '../audit/actions.js';
import type { AuditChange } from '../audit/ports.js';
import type { ExpiryScheduler } from '../expiries/ports.js';
import { ApiError, validationError } from '../errors.js';
import type { DeclineCode } from '../payment-methods/processor.js';
import type { IdempotentResponse } from '../idempotency/idempotency.js';
import { ORGANIZATION_PERMISSIONS, type RequestContext } from '../tenancy.js';
import type { ChargeRetries, RecurringSchedule } from './collection-ports.js';
import { COLLECTION_ACTOR, type CollectionDeps, type InvoicePayingSeams } from './collection-seams.js';
import {
  achSettlesAt,
  afterChargeFailure,
  recurringChargeAt,
  runsBefore,
  type RecurringInterval,
} from './invoice-collection-rules.js';
import { presentRecurringSchedule } from './invoice-collection-view.js';
import { INVOICE_STATES } from './invoice-states.js';
import type { Invoice } from './types.js';

/** After a bank debit was accepted: its settlement, one expiry at the ACH rail's time (the invoice service's `onPendingPayment`). */
export function invoiceSettlementScheduler(expiries: ExpiryScheduler, timeScale: number) {
  return async (invoice: Invoice): Promise<void> => {
    if (!invoice.pendingPayment) return;
    const at = achSettlesAt(invoice.environment, new Date(invoice.pendingPayment.startedAt), timeScale);
    await expiries.schedule({ kind: 'invoiceSettlement', id: invoice.id }, at);
  };
}

/** What an expiry message's run did: `not-due` puts it back for later. */
export type ClockOutcome = 'done' | 'not-due';

export interface RecurringInput {
  interval: RecurringInterval;
  endAt?: string | undefined;
}

/** Message ids: `<invoice>.<n>` (run n of a schedule; retry n of an invoice), so a schedule name is unique per step. */
const stepId = (invoiceId: string, n: number) => `${invoiceId}.${n}`;
export function stepOf(id: string): { invoiceId: string; n: number } | undefined {
  const match = /^(inv_[A-Za-z0-9]+)\.([1-9][0-9]{0,5})$/.exec(id);
  return match ? { invoiceId: match[1]!, n: Number(match[2]) } : undefined;
}

/** A repeated step (a key's retry after a crash) finds its record written: nothing more to do. */
const ignoreRepeat = (error: unknown) => {
  if (error instanceof ApiError && (error.code === 'CONCURRENT_UPDATE' || error.code === 'INVALID_STATE')) return;
  throw error;
};

const isDeclined = (error: unknown): error is ApiError =>
  error instanceof ApiError && error.code === 'PAYMENT_DECLINED';
const declineCodeOf = (error: ApiError) => String((error.details as { declineCode?: unknown })?.declineCode ?? '');

/**
 * The clocks of collecting invoices (docs/api.md "Invoices: collection"): a bank debit's
 * settlement, recurring charges (run by run, each claimed before it charges, so a duplicated
 * schedule message never charges twice) and the retries of a declined charge (1, 3 and 7 days
 * after the first failure; then UNCOLLECTIBLE). Each step is a one-time expiry message.
 */
export function invoiceRecurring(deps: CollectionDeps, seams: InvoicePayingSeams) {
  const { store, clock, expiries, timeScale, parties, log } = deps;

  /** The organization acting through its clocks: audited as SYSTEM. */
  const systemCtx = (of: { organizationId: string; environment: Invoice['environment'] }): RequestContext => ({
    principal: {
      kind: 'ORGANIZATION',
      keyId: COLLECTION_ACTOR.actorId,
      organizationId: of.organizationId,
      environment: of.environment,
      permissions: [...ORGANIZATION_PERMISSIONS],
      walletId: null,
    },
    actor: COLLECTION_ACTOR,
    requestId: `collection_${clock.now().getTime()}`,
  });

  // ---- ACH settlement ----

  const scheduleSettlement = invoiceSettlementScheduler(expiries, timeScale);

  /** The settlement's expiry: the invoice service settles the debit in flight (a late or repeated message: nothing). */
  async function settle(invoiceId: string): Promise<ClockOutcome> {
    const invoice = await store.getInvoice(invoiceId);
    const pending = invoice?.pendingPayment;
    if (!invoice || !pending || invoice.status !== 'FINALIZED') return 'done';
    const due = achSettlesAt(invoice.environment, new Date(pending.startedAt), timeScale);
    if (clock.now().getTime() < Date.parse(due)) return 'not-due';
    await seams.settlePendingPayment(invoiceId);
    return 'done';
  }

  // ---- retries ----

  /** Failure number `failures` of a charged invoice: the next retry scheduled, or (after the third retry) UNCOLLECTIBLE. */
  async function failed(
    invoice: Invoice,
    failures: number,
    declineCode: string,
    paymentMethodId?: string,
    told: AuditChange[] = [],
  ) {
    const previous = failures === 1 ? undefined : await store.getChargeRetries(invoice.id);
    const firstFailedAt = previous?.firstFailedAt ?? clock.now().toISOString();
    const retries: ChargeRetries = {
      invoiceId: invoice.id,
      organizationId: invoice.organizationId,
      environment: invoice.environment,
      failures,
      firstFailedAt,
      ...(paymentMethodId ? { paymentMethodId } : {}),
      lastDeclineCode: declineCode,
    };
    const next = afterChargeFailure(invoice.environment, new Date(firstFailedAt), failures, timeScale);
    if ('uncollectible' in next) {
      const at = clock.now().toISOString();
      const set = { uncollectibleAt: at };
      const ended: Invoice = { ...invoice, ...set, status: INVOICE_STATES.markUncollectible.to };
      await store.commit([
        { type: 'recordChargeFailure', retries },
        ...told,
        { type: 'transitionInvoice', invoiceId: invoice.id, trigger: 'markUncollectible', set, pending: 'none' },
        seams.auditOf(COLLECTION_ACTOR, ended, AUDIT.invoice.uncollectible, at, { failures, declineCode }),
        seams.eventOf('invoice.uncollectible', ended, at),
      ]);
      return;
    }
    await store.commit([{ type: 'recordChargeFailure', retries }, ...told]);
    await expiries.schedule({ kind: 'invoiceRetry', id: stepId(invoice.id, next.retry) }, next.at);
  }

  /**
   * Charges a FINALIZED invoice on the customer's method (the given one, else the default) through
   * the invoice service; a decline is failure `failuresBefore + 1` of its retry plan.
   */
  async function chargeWithRetries(
    invoice: Invoice,
    failuresBefore: number,
    reference: string,
    paymentMethodId?: string,
  ): Promise<void> {
    try {
      const method = await parties.paymentMethodForCharge(invoice, invoice.customerId, paymentMethodId);
      await seams.chargeInvoice(invoice, { ...method, paymentMethodId: method.id }, AUDIT.invoice.charge, {
        actor: COLLECTION_ACTOR,
        reference,
      });
    } catch (error) {
      if (isDeclined(error)) return failed(invoice, failuresBefore + 1, declineCodeOf(error), paymentMethodId);
      // The customer has no such method any more (deleted): failed like a decline, told as one.
      if (error instanceof ApiError && error.code === 'PAYMENT_METHOD_NOT_FOUND') {
        const at = clock.now().toISOString();
        const declineCode: DeclineCode = 'payment_method_missing';
        return failed(invoice, failuresBefore + 1, declineCode, paymentMethodId, [
          seams.auditOf(COLLECTION_ACTOR, invoice, AUDIT.invoice.paymentFailed, at, { declineCode }),
          seams.eventOf('invoice.payment_failed', invoice, at),
        ]);
      }
      // A state that changed meanwhile (paid, voided): the invoice stays as it is.
      if (error instanceof ApiError) {
        log.error(`charge of invoice ${invoice.id} not made: ${error.code}`);
        return;
      }
      throw error;
    }
  }

  /** Retry `retry` of an invoice's charge: only if it is still FINALIZED, unpaid, and at that retry. */
  async function retry(invoiceId: string, n: number): Promise<ClockOutcome> {
    const [invoice, retries] = await Promise.all([store.getInvoice(invoiceId), store.getChargeRetries(invoiceId)]);
    if (!invoice || invoice.status !== 'FINALIZED' || invoice.pendingPayment || retries?.failures !== n) return 'done';
    const next = afterChargeFailure(invoice.environment, new Date(retries.firstFailedAt), n, timeScale);
    if ('at' in next && clock.now().getTime() < Date.parse(next.at)) return 'not-due';
    await chargeWithRetries(invoice, n, `${invoiceId}.retry.${n}`, retries.paymentMethodId);
    return 'done';
  }

  // ---- recurring ----

  /** The recurring field of a charge: checked before anything is charged. */
  function checkRecurring(recurring: RecurringInput | undefined): void {
    if (recurring?.endAt !== undefined && !(Date.parse(recurring.endAt) > clock.now().getTime()))
      throw validationError('recurring.endAt', 'must be a date-time in the future');
  }

  /** Schedules run `run` (or ends the schedule when it falls after endAt). */
  function nextOf(schedule: Pick<RecurringSchedule, 'environment' | 'interval' | 'anchorAt' | 'endAt'>, run: number) {
    const at = recurringChargeAt(schedule.environment, schedule.interval, new Date(schedule.anchorAt), run, timeScale);
    return runsBefore(at, schedule.endAt) ? at : null;
  }

  /**
   * After the first charge of a recurring charge (paid or declined: its invoice exists): the
   * schedule, kept beside the first invoice, and its second run.
   */
  async function startRecurring(first: Invoice, recurring: RecurringInput, paymentMethodId?: string) {
    const now = clock.now().toISOString();
    const base = {
      environment: first.environment,
      interval: recurring.interval,
      anchorAt: now,
      ...(recurring.endAt !== undefined ? { endAt: new Date(recurring.endAt).toISOString() } : {}),
    };
    const nextChargeAt = nextOf(base, 2);
    const schedule: RecurringSchedule = {
      ...base,
      invoiceId: first.id,
      organizationId: first.organizationId,
      walletId: first.walletId,
      customerId: first.customerId,
      ...(paymentMethodId ? { paymentMethodId } : {}),
      lineItems: first.lineItems,
      ...(first.memo !== undefined ? { memo: first.memo } : {}),
      ...(first.metadata !== undefined ? { metadata: first.metadata } : {}),
      run: 1,
      nextChargeAt,
      status: nextChargeAt ? 'ACTIVE' : 'ENDED',
      ...(nextChargeAt ? {} : { endedAt: now }),
      createdAt: now,
    };
    await store.commit([{ type: 'putRecurringSchedule', schedule }]);
    if (nextChargeAt) await expiries.schedule({ kind: 'invoiceRecurring', id: stepId(first.id, 2) }, nextChargeAt);
    return schedule;
  }

  /** Run `run` of a schedule: claimed (ACTIVE at run - 1), then a new invoice created, finalized and charged. */
  async function runRecurring(firstInvoiceId: string, run: number): Promise<ClockOutcome> {
    const schedule = await store.getRecurringSchedule(firstInvoiceId);
    if (!schedule || schedule.status !== 'ACTIVE' || schedule.run !== run - 1 || !schedule.nextChargeAt) return 'done';
    if (clock.now().getTime() < Date.parse(schedule.nextChargeAt)) return 'not-due';
    const next = nextOf(schedule, run + 1);
    try {
      await store.commit([
        {
          type: 'advanceRecurringSchedule',
          invoiceId: firstInvoiceId,
          fromRun: run - 1,
          set: {
            run,
            nextChargeAt: next,
            ...(next ? {} : { status: 'ENDED' as const, endedAt: clock.now().toISOString() }),
          },
        },
      ]);
    } catch (error) {
      if (error instanceof ApiError) return 'done'; // another delivery of this message claimed the run
      throw error;
    }
    if (next) await expiries.schedule({ kind: 'invoiceRecurring', id: stepId(firstInvoiceId, run + 1) }, next);
    const invoice = await seams.createFinalized(systemCtx(schedule), {
      walletId: schedule.walletId,
      customerId: schedule.customerId,
      lineItems: schedule.lineItems,
      ...(schedule.memo !== undefined ? { memo: schedule.memo } : {}),
      metadata: { ...schedule.metadata, recurringInvoiceId: firstInvoiceId, recurringRun: run },
    });
    await chargeWithRetries(invoice, 0, `${firstInvoiceId}.run.${run}`, schedule.paymentMethodId);
    return 'done';
  }

  /** ACTIVE -> CANCELLED: no further run (a run already claimed completes). */
  async function cancelRecurring(ctx: RequestContext, action: AuditAction, invoiceId: string) {
    const invoice = await seams.load(ctx, invoiceId);
    const schedule = await store.getRecurringSchedule(invoice.id);
    if (!schedule) throw new ApiError('INVALID_STATE', 'The invoice has no recurring schedule.', { status: null });
    const at = clock.now().toISOString();
    await store.commit([
      { type: 'cancelRecurringSchedule', invoiceId: invoice.id, cancelledAt: at },
      seams.auditOf(ctx.actor, invoice, action, at, { interval: schedule.interval, runs: schedule.run }),
    ]);
    return { ...schedule, status: 'CANCELLED' as const, nextChargeAt: null, cancelledAt: at };
  }

  /** After a first charge declined (once, even if the request is repeated): its retry plan, and the schedule if asked. */
  async function afterFirstDecline(invoiceId: string, declineCode: string, recurring?: RecurringInput, pmId?: string) {
    const invoice = await store.getInvoice(invoiceId);
    if (!invoice || (await store.getChargeRetries(invoiceId))) return;
    await failed(invoice, 1, declineCode, pmId).catch(ignoreRepeat);
    if (recurring) await startRecurring(invoice, recurring, pmId).catch(ignoreRepeat);
  }

  /**
   * The one-off charge with collection: `charge` (the invoice service's create, finalize and
   * charge, idempotent by key) then, when asked, the recurring schedule; a declined charge (402
   * PAYMENT_DECLINED, `details.invoiceId`) starts its retry plan. A replayed answer changes nothing.
   */
  async function chargeCollected(
    recurring: RecurringInput | undefined,
    paymentMethodId: string | undefined,
    charge: () => Promise<IdempotentResponse>,
  ): Promise<IdempotentResponse> {
    checkRecurring(recurring);
    let response: IdempotentResponse;
    try {
      response = await charge();
    } catch (error) {
      const invoiceId = isDeclined(error) ? (error.details as { invoiceId?: unknown })?.invoiceId : undefined;
      if (typeof invoiceId === 'string')
        await afterFirstDecline(invoiceId, declineCodeOf(error as ApiError), recurring, paymentMethodId);
      throw error;
    }
    if (response.replayed) return response;
    const body = response.body as {
      id?: unknown;
      error?: { code?: unknown; details?: { invoiceId?: unknown; declineCode?: unknown } };
    };
    if (body.error?.code === 'PAYMENT_DECLINED' && typeof body.error.details?.invoiceId === 'string') {
      const { invoiceId, declineCode } = body.error.details;
      await afterFirstDecline(invoiceId, String(declineCode ?? ''), recurring, paymentMethodId);
      return response;
    }
    const invoice = typeof body.id === 'string' ? await store.getInvoice(body.id) : undefined;
    if (!recurring || !invoice) return response;
    const schedule = await startRecurring(invoice, recurring, paymentMethodId);
    return { ...response, body: { ...(response.body as object), recurring: presentRecurringSchedule(schedule) } };
  }

  return {
    scheduleSettlement,
    settle,
    retry,
    runRecurring,
    cancelRecurring,
    chargeCollected,
    recurringOf: (invoiceId: string) => store.getRecurringSchedule(invoiceId),
  };
}
