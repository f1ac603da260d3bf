import { ApiError } from '../../domain/errors.js';
import type { JournalRecord } from '../../domain/ledger/journal.js';
import type { PaymentChange } from '../../domain/payments/ports.js';
import { TRANSACTION_STATES } from '../../domain/payments/transaction-states.js';
import { fromStatesOf, targetOf } from '../../domain/state-table.js';
import { journalCodec, transactionKeys } from '../entities/transaction.js';
import { inStates, put, setFields, update, type ChangeWriters } from '../write-builders.js';
import { slotClaimWrite } from './idempotency-writers.js';

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
    return [
      update(
        tableName,
        transactionKeys.primary(change.transactionId),
        `SET ${sets.join(', ')}`,
        from.condition,
        { ...values, ...from.values },
        names,
        (old) =>
          change.onMismatch === 'REVERSAL_NOT_ALLOWED'
            ? new ApiError(
                'REVERSAL_NOT_ALLOWED',
                `The transaction is ${String(old?.status ?? 'unknown')} and cannot be reversed.`,
                { status: old?.status },
              )
            : new ApiError('INVALID_STATE', `The transaction is ${String(old?.status ?? 'unknown')}.`, {
                status: old?.status,
              }),
      ),
    ];
  },
};
