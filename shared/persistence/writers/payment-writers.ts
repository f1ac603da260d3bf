import { ApiError } from '../../domain/errors.js';
import type { JournalRecord } from '../../domain/ledger/journal.js';
import type { PaymentChange } from '../../domain/payments/ports.js';
import { TRANSACTION_STATES } from '../../domain/payments/transaction-states.js';
import { fromStatesOf, targetOf } from '../../domain/state-table.js';
import { journalCodec, transactionKeys } from '../entities/transaction.js';
import type { Item } from '../item.js';
import { inStates, put, setFields, update, type ChangeWriters } from '../write-builders.js';
import { slotClaimWrite } from './idempotency-writers.js';

/** Why a transaction's transition failed: a disputed payment (a reversal), else its status. */
function mismatchOf(change: Extract<PaymentChange, { type: 'setTransactionStatus' }>, old: Item | undefined): ApiError {
  if (change.trigger === 'reverse' && typeof old?.disputeId === 'string')
    return new ApiError('REVERSAL_NOT_ALLOWED', 'The payment is disputed.', {
      disputeId: old.disputeId,
    });
  const status = String(old?.status ?? 'unknown');
  return change.onMismatch === 'REVERSAL_NOT_ALLOWED'
    ? new ApiError('REVERSAL_NOT_ALLOWED', `The transaction is ${status} and cannot be reversed.`, {
        status: old?.status,
      })
    : new ApiError('INVALID_STATE', `The transaction is ${status}.`, { status: old?.status });
}

export const paymentWriters: ChangeWriters<PaymentChange> = {
  createTransaction: (tableName, change) => {
    const record: JournalRecord = {
      ...change.transaction,
      ...(change.idempotency ? { idempotencyFingerprint: change.idempotency.fingerprint } : {}),
      ...(change.approvalExpiresAt ? { approvalExpiresAt: change.approvalExpiresAt } : {}),
    };
    // With a key, the record is the key's claim (its id is the key's slot): the one slot-taking write.
    return [
      change.idempotency
        ? slotClaimWrite(tableName, journalCodec.toItem(record), record.createdAt)
        : put(tableName, journalCodec.toItem(record)),
    ];
  },
  setTransactionStatus: (tableName, change) => {
    const { sets, names, values } = setFields(
      { ...(change.fields ?? {}), status: targetOf(TRANSACTION_STATES, change.trigger) },
      'f_',
    );
    const from = inStates('#f_status', fromStatesOf(TRANSACTION_STATES, change.trigger), ':from');
    // A disputed payment is never reversed: of a reversal and a dispute's opening racing, exactly one wins.
    const undisputed = change.trigger === 'reverse';
    return [
      update(
        tableName,
        transactionKeys.primary(change.transactionId),
        `SET ${sets.join(', ')}`,
        undisputed ? `${from.condition} AND attribute_not_exists(disputeId)` : from.condition,
        { ...values, ...from.values },
        names,
        (old) => mismatchOf(change, old),
      ),
    ];
  },
};
