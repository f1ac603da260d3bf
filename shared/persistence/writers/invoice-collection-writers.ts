import { ApiError } from '../../domain/errors.js';
import type { CollectionChange } from '../../domain/invoices/collection-ports.js';
import { collectionCodec, collectionKeys } from '../entities/invoice-collection.js';
import { CONFLICT_RETRY_AFTER_S } from '../transact.js';
import { put, setFields, update, type ChangeWriters } from '../write-builders.js';

type Old = Record<string, unknown> | undefined;

const concurrent = (what: string) => () =>
  new ApiError('CONCURRENT_UPDATE', `${what} changed meanwhile; retry.`, { retryAfter: CONFLICT_RETRY_AFTER_S });

const scheduleRefusal = (old: Old) =>
  old
    ? new ApiError('INVALID_STATE', `The recurring schedule is ${String(old.status)}.`, { status: old.status })
    : new ApiError('INVALID_STATE', 'The invoice has no recurring schedule.');

export const invoiceCollectionWriters: ChangeWriters<CollectionChange> = {
  /** The deposit and its address pointer: each once (a second request loses and reads the first). */
  putUsdcDeposit: (tableName, change) => [
    put(tableName, collectionCodec.depositItem(change.deposit), concurrent("The invoice's USDC address")),
    put(tableName, collectionCodec.addressItem(change.deposit)),
  ],

  putUsdcReceipt: (tableName, change) => [put(tableName, collectionCodec.receiptItem(change.receipt))],

  putRecurringSchedule: (tableName, change) => [
    put(
      tableName,
      collectionCodec.recurringItem(change.schedule),
      () => new ApiError('INVALID_STATE', 'The invoice has a recurring schedule already.'),
    ),
  ],

  /** Claims run `fromRun + 1`: only an ACTIVE schedule still at `fromRun` moves (a duplicated message loses). */
  advanceRecurringSchedule: (tableName, change) => {
    const { sets, names, values } = setFields(change.set, 'f_');
    return [
      update(
        tableName,
        collectionKeys.recurring(change.invoiceId),
        `SET ${sets.join(', ')}`,
        'attribute_exists(PK) AND #run = :fromRun AND #state = :active',
        { ...values, ':fromRun': change.fromRun, ':active': 'ACTIVE' },
        { ...names, '#run': 'run', '#state': 'status' },
        scheduleRefusal,
      ),
    ];
  },

  cancelRecurringSchedule: (tableName, change) => [
    update(
      tableName,
      collectionKeys.recurring(change.invoiceId),
      'SET #state = :cancelled, cancelledAt = :at, nextChargeAt = :none',
      'attribute_exists(PK) AND #state = :active',
      { ':cancelled': 'CANCELLED', ':at': change.cancelledAt, ':none': null, ':active': 'ACTIVE' },
      { '#state': 'status' },
      scheduleRefusal,
    ),
  ],

  /** The first failure creates the record; failure n requires failure n - 1 (a duplicated retry loses). */
  recordChargeFailure: (tableName, change) => {
    const { retries } = change;
    if (retries.failures === 1)
      return [put(tableName, collectionCodec.retriesItem(retries), concurrent("The invoice's charge"))];
    return [
      update(
        tableName,
        collectionKeys.retries(retries.invoiceId),
        'SET failures = :failures, lastDeclineCode = :code',
        'attribute_exists(PK) AND failures = :previous',
        { ':failures': retries.failures, ':previous': retries.failures - 1, ':code': retries.lastDeclineCode },
        undefined,
        concurrent("The invoice's charge"),
      ),
    ];
  },
};
