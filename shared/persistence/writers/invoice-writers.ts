import { ApiError } from '../../domain/errors.js';
import { INVOICE_STATES } from '../../domain/invoices/invoice-states.js';
import type { InvoiceChange } from '../../domain/invoices/ports.js';
import { fromStatesOf } from '../../domain/state-table.js';
import { INVOICE_COUNTER_ENTITY, invoiceCodec, invoiceKeys, invoiceSlugCodec } from '../entities/invoice.js';
import { CONFLICT_RETRY_AFTER_S } from '../transact.js';
import { inStates, put, transitionUpdate, update, type ChangeWriters } from '../write-builders.js';

type Old = Record<string, unknown> | undefined;

/** A failed condition of an invoice write: gone, in another state, or a bank debit (not) in flight. */
const refusal = (old: Old) => {
  if (!old) return new ApiError('INVOICE_NOT_FOUND');
  if (old.status === 'FINALIZED' && old.pendingPayment)
    return new ApiError('INVALID_STATE', 'A bank debit of this invoice is in flight; wait for it to settle.', {
      status: old.status,
    });
  return new ApiError('INVALID_STATE', `The invoice is ${String(old.status)}.`, { status: old.status });
};

export const invoiceWriters: ChangeWriters<InvoiceChange> = {
  putInvoice: (tableName, change) => [put(tableName, invoiceCodec.toItem(change.invoice))],

  /** The invoice, its slug's pointer and the number counter: one transaction, so a number or a slug is never handed out twice. */
  finalizeInvoice: (tableName, change) => [
    transitionUpdate(tableName, invoiceKeys.primary(change.invoiceId), INVOICE_STATES.finalize, {
      set: { number: change.number, slug: change.slug, finalizedAt: change.finalizedAt },
      condition: 'attribute_exists(PK)',
      onConditionFailed: refusal,
    }),
    put(tableName, invoiceSlugCodec.toItem(change.slug, change.invoiceId)),
    update(
      tableName,
      invoiceKeys.counter(change.organizationId, change.environment),
      'SET lastNumber = :next, entityType = :entity',
      change.sequence === 1 ? 'attribute_not_exists(PK)' : 'lastNumber = :previous',
      {
        ':next': change.sequence,
        ':entity': INVOICE_COUNTER_ENTITY,
        ...(change.sequence === 1 ? {} : { ':previous': change.sequence - 1 }),
      },
      undefined,
      () =>
        new ApiError('CONCURRENT_UPDATE', 'Another invoice was numbered meanwhile; retry.', {
          retryAfter: CONFLICT_RETRY_AFTER_S,
        }),
    ),
  ],

  transitionInvoice: (tableName, change) => {
    const { status: _ignored, ...fields } = change.set;
    const pending = change.pending;
    return [
      transitionUpdate(tableName, invoiceKeys.primary(change.invoiceId), INVOICE_STATES[change.trigger], {
        set: fields,
        remove: typeof pending === 'object' ? ['pendingPayment'] : [],
        condition:
          pending === undefined
            ? 'attribute_exists(PK)'
            : pending === 'none'
              ? 'attribute_exists(PK) AND attribute_not_exists(pendingPayment)'
              : 'pendingPayment.processorChargeId = :charge',
        values: typeof pending === 'object' ? { ':charge': pending.processorChargeId } : {},
        onConditionFailed: refusal,
      }),
    ];
  },

  startInvoicePendingPayment: (tableName, change) => {
    const from = inStates('#status', fromStatesOf(INVOICE_STATES, 'pay'), ':from');
    return [
      update(
        tableName,
        invoiceKeys.primary(change.invoiceId),
        'SET pendingPayment = :pending',
        `attribute_exists(PK) AND ${from.condition} AND attribute_not_exists(pendingPayment)`,
        { ...from.values, ':pending': change.pendingPayment },
        { '#status': 'status' },
        refusal,
      ),
    ];
  },

  recordInvoiceDecline: (tableName, change) => [
    update(
      tableName,
      invoiceKeys.primary(change.invoiceId),
      'SET declines = :declines',
      change.previousCount === 0
        ? 'attribute_exists(PK) AND attribute_not_exists(declines)'
        : 'declines.#count = :previous',
      { ':declines': change.declines, ...(change.previousCount === 0 ? {} : { ':previous': change.previousCount }) },
      change.previousCount === 0 ? undefined : { '#count': 'count' },
      (old) =>
        old
          ? new ApiError('CONCURRENT_UPDATE', 'Another payment of this invoice was declined meanwhile; retry.', {
              retryAfter: CONFLICT_RETRY_AFTER_S,
            })
          : refusal(old),
    ),
  ],

  clearInvoicePendingPayment: (tableName, change) => [
    update(
      tableName,
      invoiceKeys.primary(change.invoiceId),
      'REMOVE pendingPayment',
      'pendingPayment.processorChargeId = :charge',
      { ':charge': change.processorChargeId },
      undefined,
      (old) => (old ? new ApiError('INVALID_STATE', 'No such bank debit is in flight.') : refusal(old)),
    ),
  ],
};

/**
 * The invoice change a payment's rider commits with its posting (shared/domain/payments/payment-rider.ts):
 * the payment and approval stores write it with the invoice's own writer and condition.
 */
export const riderWriters: ChangeWriters<Extract<InvoiceChange, { type: 'transitionInvoice' }>> = {
  transitionInvoice: invoiceWriters.transitionInvoice,
};
