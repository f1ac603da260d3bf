import Big from 'big.js';
import { ApiError } from '../domain/errors.js';
import { assertBalanced, type Leg, type Posting } from '../domain/ledger/posting.js';
import { formatAmount, formatBalance } from '../domain/money.js';
import { periodLimitDenied } from '../domain/policies/policy-rules.js';
import type { PeriodLimitCheck } from '../domain/policies/policy-types.js';
import { readBig, toNumberAttribute } from './client.js';
import { ENTITY, type Item } from './items/codecs.js';
import { SPEND_ENTITY } from './items/ledger-codecs.js';
import { keys } from './keys.js';
import { TTL_ATTRIBUTE } from './table-schema.js';
import type { TransactWrite } from './transact.js';
import { put, setFields, update } from './write-builders.js';

/** The items of a posting: balance updates with their conditions, ledger entries, the record, counters. */
function partitionOf(posting: Posting, leg: Leg): string {
  return leg.account.kind === 'WALLET'
    ? keys.walletPartition(leg.account.walletId)
    : keys.systemAccountPartition(posting.environment, leg.account.accountId);
}

/**
 * A posting: for each wallet leg a conditional balance update (active, same environment, enough
 * available funds for a debit) and a ledger entry; for each system leg an entry only; plus the
 * transaction record.
 */
export function postingWrites(tableName: string, posting: Posting): TransactWrite[] {
  assertBalanced(posting);
  const writes: TransactWrite[] = [];
  posting.legs.forEach((leg, index) => {
    if (leg.account.kind === 'WALLET') writes.push(leg.close ? walletCloseUpdate(tableName, posting, leg.account.walletId, leg, leg.close) : walletBalanceUpdate(tableName, posting, leg.account.walletId, leg));
    writes.push(
      put(tableName, {
        ...keys.ledgerEntry(partitionOf(posting, leg), posting.createdAt, posting.transactionId, index),
        entityType: ENTITY.ledgerEntry,
        transactionId: posting.transactionId,
        transactionType: posting.type,
        account: leg.account.kind === 'WALLET' ? leg.account.walletId : leg.account.accountId,
        accountKind: leg.account.kind,
        environment: posting.environment,
        organizationId: posting.organizationId,
        amount: toNumberAttribute(leg.amount),
        createdAt: posting.createdAt,
        description: posting.description,
      }),
    );
  });
  const record = { id: posting.transactionId, type: posting.type, organizationId: posting.organizationId, environment: posting.environment, currency: posting.currency, createdAt: posting.createdAt, description: posting.description, ...posting.attributes } as unknown as TransactionRecord;
  if (posting.record === 'create') {
    writes.push(put(tableName, transactionItem(record)));
  } else {
    const { id: _id, createdAt: _createdAt, ...fields } = record;
    const { sets, names, values } = setFields(fields, 't_');
    writes.push(
      update(tableName, keys.transaction(posting.transactionId), `SET ${sets.join(', ')}`, '#t_status_old = :queued', { ...values, ':queued': 'QUEUED' }, { ...names, '#t_status_old': 'status' }, (old) =>
        new ApiError('INVALID_STATE', `The payment is ${String(old?.status ?? 'unknown')}.`, { status: old?.status }),
      ),
    );
  }
  for (const check of posting.periodLimits ?? []) writes.push(spendCounterUpdate(tableName, check));
  return writes;
}

/** Transaction types listed by GET /v1/payments; fundings, budget moves and sweeps show in statements. */
const LISTED_AS_PAYMENTS = new Set(['PAYMENT', 'REVERSAL']);

export type TransactionRecord = Record<string, unknown> & { id: string; type: string; organizationId: string; environment: 'SANDBOX' | 'PRODUCTION'; createdAt: string; from: string; to: string; payeeOrganizationId?: string };

export function transactionItem(record: TransactionRecord): Item {
  const sort = `${record.createdAt}#${record.id}`;
  const listed = LISTED_AS_PAYMENTS.has(record.type)
    ? {
        GSI1PK: keys.paymentsFromOrganization(record.organizationId, record.environment),
        GSI1SK: sort,
        GSI2PK: keys.paymentsFromWallet(record.from),
        GSI2SK: sort,
        GSI3PK: keys.paymentsToWallet(record.to),
        GSI3SK: sort,
        GSI4PK: keys.paymentsToOrganization(record.payeeOrganizationId ?? record.organizationId, record.environment),
        GSI4SK: sort,
      }
    : {};
  return { ...keys.transaction(record.id), ...listed, entityType: ENTITY.transaction, ...record };
}

/** The period counter grows by the amount only while it stays within the limit. */
function spendCounterUpdate(tableName: string, check: PeriodLimitCheck): TransactWrite {
  return update(
    tableName,
    keys.spendCounter(check.walletId, check.period, check.periodKey),
    'ADD spent :amount SET entityType = :type, walletId = :wallet, period = :period, periodKey = :key, #ttl = :ttl',
    '(attribute_not_exists(spent) AND :amount <= :limit) OR spent <= :ceiling',
    {
      ':amount': toNumberAttribute(check.amount),
      ':ceiling': toNumberAttribute(check.limit.minus(check.amount)),
      ':limit': toNumberAttribute(check.limit),
      ':type': SPEND_ENTITY,
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
    keys.wallet(walletId),
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
  return {
    item: {
      Update: {
        TableName: tableName,
        Key: keys.wallet(walletId),
        UpdateExpression: 'ADD balance :delta, entryCount :one',
        ConditionExpression: conditions.join(' AND '),
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: values,
      },
    },
    onConditionFailed: (old) => {
      if (!old) return new ApiError('WALLET_NOT_FOUND', undefined, { walletId });
      if (old.environment !== posting.environment) return new ApiError('ENVIRONMENT_MISMATCH', undefined, { walletId });
      if (old.status !== 'ACTIVE') return new ApiError('WALLET_FROZEN', undefined, { walletId });
      return new ApiError('INSUFFICIENT_FUNDS', undefined, {
        walletId,
        balance: formatBalance(readBig(old.balance)),
        requested: formatAmount(requested),
      });
    },
  };
}
