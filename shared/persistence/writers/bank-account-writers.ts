import { BANK_ACCOUNT_STATES } from '../../domain/bank-accounts/bank-account-states.js';
import type { BankAccountChange } from '../../domain/bank-accounts/ports.js';
import { ApiError } from '../../domain/errors.js';
import { fromStatesOf, targetOf } from '../../domain/state-table.js';
import { bankAccountCodec, bankAccountKeys } from '../entities/bank-account.js';
import { CONFLICT_RETRY_AFTER_S } from '../transact.js';
import { inStates, put, transitionUpdate, update, type ChangeWriters } from '../write-builders.js';

const STATUS = { '#status': 'status' };

/** A failed condition: the account is gone (deleted or never there), or left the states the trigger fires from. */
const refusal = (old: Record<string, unknown> | undefined) =>
  !old || old.status === targetOf(BANK_ACCOUNT_STATES, 'delete')
    ? new ApiError('BANK_ACCOUNT_NOT_FOUND')
    : new ApiError('INVALID_STATE', `The bank account is ${String(old.status)}.`, { status: old.status });

/** A verification answer's condition failed: another answer was counted since the read (retry on the new count), or the account left PENDING_VERIFICATION. */
const countedMeanwhile = (old: Record<string, unknown> | undefined) =>
  old && fromStatesOf(BANK_ACCOUNT_STATES, 'verify').includes(old.status as never)
    ? new ApiError('CONCURRENT_UPDATE', 'Another verification attempt was counted meanwhile; retry.', {
        retryAfter: CONFLICT_RETRY_AFTER_S,
      })
    : refusal(old);

export const bankAccountWriters: ChangeWriters<BankAccountChange> = {
  putBankAccount: (tableName, change) => [put(tableName, bankAccountCodec.toItem(change.bankAccount))],

  /** Over the count of wrong answers read, like a wrong answer's count: answers commit one at a time, each on the state it was decided on. */
  verifyBankAccount: (tableName, change) => [
    transitionUpdate(tableName, bankAccountKeys.primary(change.bankAccountId), BANK_ACCOUNT_STATES.verify, {
      set: { verifiedAt: change.verifiedAt },
      remove: ['microDepositsSealed'],
      condition: 'failedVerificationAttempts = :read',
      values: { ':read': change.failedAttempts },
      onConditionFailed: countedMeanwhile,
    }),
  ],

  /** Counted over the count read, only while `verify` could still fire: concurrent answers are counted one at a time. */
  countFailedBankAccountVerification: (tableName, change) => {
    const from = inStates('#status', fromStatesOf(BANK_ACCOUNT_STATES, 'verify'), ':from');
    const failing = change.fail
      ? {
          expression: ', #status = :failed, failedAt = :at REMOVE microDepositsSealed',
          values: { ':failed': targetOf(BANK_ACCOUNT_STATES, 'failVerification'), ':at': change.at },
        }
      : { expression: '', values: {} };
    return [
      update(
        tableName,
        bankAccountKeys.primary(change.bankAccountId),
        `SET failedVerificationAttempts = :next${failing.expression}`,
        `${from.condition} AND failedVerificationAttempts = :read`,
        { ...from.values, ':read': change.failedAttempts, ':next': change.failedAttempts + 1, ...failing.values },
        STATUS,
        countedMeanwhile,
      ),
    ];
  },

  /** The sealed values and the list entry go; the item stays (audit trail), answering as absent. */
  deleteBankAccount: (tableName, change) => [
    transitionUpdate(tableName, bankAccountKeys.primary(change.bankAccountId), BANK_ACCOUNT_STATES.delete, {
      set: { deletedAt: change.deletedAt },
      remove: ['accountNumberSealed', 'microDepositsSealed', 'GSI1PK', 'GSI1SK'],
      onConditionFailed: () => new ApiError('BANK_ACCOUNT_NOT_FOUND'),
    }),
  ],
};
