import Big from 'big.js';
import { ApiError } from '../../domain/errors.js';
import { assertBalanced, type Leg, type Posting, type PostingChange } from '../../domain/ledger/posting.js';
import { formatAmount, formatBalance } from '../../domain/money.js';
import { TRANSACTION_STATES } from '../../domain/payments/transaction-states.js';
import { periodLimitDenied } from '../../domain/policies/policy-rules.js';
import type { PeriodLimitCheck } from '../../domain/policies/policy-types.js';
import { fromStatesOf } from '../../domain/state-table.js';
import { readBig, toNumberAttribute } from '../client.js';
import { ledgerEntryCodec } from '../entities/ledger-entry.js';
import { SPEND_COUNTER_ENTITY, spendCounterKeys } from '../entities/spend-counter.js';
import { transactionCodec, transactionKeys, type TransactionRecord } from '../entities/transaction.js';
import { walletKeys } from '../entities/wallet.js';
import { TTL_ATTRIBUTE } from '../table-schema.js';
import type { TransactWrite } from '../transact.js';
import { inStates, put, setFields, update, type ChangeWriters } from '../write-builders.js';

export const postingWriters: ChangeWriters<PostingChange> = {
  posting: (tableName, change) => postingWrites(tableName, change.posting),
};

/**
 * A posting: for each wallet leg a conditional balance update (active, same environment, enough
 * available funds for a debit) and a ledger entry; for each system leg an entry only; plus the
 * transaction record and the period spend counters.
 */
function postingWrites(tableName: string, posting: Posting): TransactWrite[] {
  assertBalanced(posting);
  const writes: TransactWrite[] = [];
  posting.legs.forEach((leg, index) => {
    if (leg.account.kind === 'WALLET') writes.push(leg.close ? walletCloseUpdate(tableName, posting, leg.account.walletId, leg, leg.close) : walletBalanceUpdate(tableName, posting, leg.account.walletId, leg));
    writes.push(
      put(
        tableName,
        ledgerEntryCodec.toItem({
          account: leg.account,
          environment: posting.environment,
          organizationId: posting.organizationId,
          transactionId: posting.transactionId,
          transactionType: posting.type,
          leg: index,
          amount: leg.amount,
          createdAt: posting.createdAt,
          description: posting.description,
        }),
      ),
    );
  });
  const record = { id: posting.transactionId, type: posting.type, organizationId: posting.organizationId, environment: posting.environment, currency: posting.currency, createdAt: posting.createdAt, description: posting.description, ...posting.attributes } as unknown as TransactionRecord;
  if (posting.record === 'create') {
    writes.push(put(tableName, transactionCodec.toItem(record)));
  } else {
    // An approved payment: its QUEUED record becomes the posted one (TRANSACTION_STATES 'post').
    const { id: _id, createdAt: _createdAt, ...fields } = record;
    const { sets, names, values } = setFields(fields, 't_');
    const from = inStates('#t_status_old', fromStatesOf(TRANSACTION_STATES, 'post'), ':t_from');
    writes.push(
      update(tableName, transactionKeys.primary(posting.transactionId), `SET ${sets.join(', ')}`, from.condition, { ...values, ...from.values }, { ...names, '#t_status_old': 'status' }, (old) =>
        new ApiError('INVALID_STATE', `The payment is ${String(old?.status ?? 'unknown')}.`, { status: old?.status }),
      ),
    );
  }
  for (const check of posting.periodLimits ?? []) writes.push(spendCounterUpdate(tableName, check));
  return writes;
}

/** The period counter grows by the amount only while it stays within the limit. */
function spendCounterUpdate(tableName: string, check: PeriodLimitCheck): TransactWrite {
  return update(
    tableName,
    spendCounterKeys.primary(check.walletId, check.period, check.periodKey),
    'ADD spent :amount SET entityType = :type, walletId = :wallet, period = :period, periodKey = :key, #ttl = :ttl',
    '(attribute_not_exists(spent) AND :amount <= :limit) OR spent <= :ceiling',
    {
      ':amount': toNumberAttribute(check.amount),
      ':ceiling': toNumberAttribute(check.limit.minus(check.amount)),
      ':limit': toNumberAttribute(check.limit),
      ':type': SPEND_COUNTER_ENTITY,
      ':wallet': check.walletId,
      ':period': check.period,
      ':key': check.periodKey,
      ':ttl': check.expiresAtEpochS,
    },
    { '#ttl': TTL_ATTRIBUTE },
    (old) => periodLimitDenied(check, old?.spent === undefined ? new Big(0) : readBig(old.spent)),
  );
}

/** The sweep of a closing wallet: exactly its balance leaves, whatever its status, and it is marked closed. */
function walletCloseUpdate(tableName: string, posting: Posting, walletId: string, leg: Leg, close: NonNullable<Leg['close']>): TransactWrite {
  const { sets, names, values } = setFields(close.set, 'c_');
  return update(
    tableName,
    walletKeys.primary(walletId),
    `SET ${sets.join(', ')} ADD balance :delta, entryCount :one`,
    'attribute_exists(PK) AND attribute_not_exists(deletedAt) AND balance = :expected AND environment = :environment',
    { ...values, ':delta': toNumberAttribute(leg.amount), ':one': 1, ':expected': toNumberAttribute(close.expectedBalance), ':environment': posting.environment },
    names,
    (old) => {
      if (!old) return new ApiError('WALLET_NOT_FOUND', undefined, { walletId });
      if (old.deletedAt) return new ApiError('INVALID_STATE', 'The agent is already deleted.');
      return new ApiError('INVALID_STATE', 'The balance changed while deleting; retry.', { walletId });
    },
  );
}

/** Money moves only on an ACTIVE wallet of the posting's environment; a debit needs the funds. */
function walletBalanceUpdate(tableName: string, posting: Posting, walletId: string, leg: Leg): TransactWrite {
  const debit = leg.amount.lt(0);
  const requested = leg.amount.abs();
  const conditions = ['attribute_exists(PK)', '#status = :active', 'environment = :environment'];
  const values: Record<string, unknown> = {
    ':delta': toNumberAttribute(leg.amount),
    ':one': 1,
    ':active': 'ACTIVE',
    ':environment': posting.environment,
  };
  if (debit) {
    conditions.push('balance >= :requested');
    values[':requested'] = toNumberAttribute(requested);
  }
  return update(tableName, walletKeys.primary(walletId), 'ADD balance :delta, entryCount :one', conditions.join(' AND '), values, { '#status': 'status' }, (old) => {
    if (!old) return new ApiError('WALLET_NOT_FOUND', undefined, { walletId });
    if (old.environment !== posting.environment) return new ApiError('ENVIRONMENT_MISMATCH', undefined, { walletId });
    if (old.status !== 'ACTIVE') return new ApiError('WALLET_FROZEN', undefined, { walletId });
    return new ApiError('INSUFFICIENT_FUNDS', undefined, {
      walletId,
      balance: formatBalance(readBig(old.balance)),
      requested: formatAmount(requested),
    });
  });
}
