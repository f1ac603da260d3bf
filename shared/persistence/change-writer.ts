import type { Change } from '../domain/changes.js';
import { ApiError } from '../domain/errors.js';
import { assertBalanced, type Leg, type Posting } from '../domain/ledger/posting.js';
import { formatAmount, formatBalance } from '../domain/money.js';
import { readBig, toNumberAttribute } from './client.js';
import { apiKeyCodec, auditCodec, ENTITY, organizationCodec, outboxCodec, walletCodec, type Item } from './items/codecs.js';
import { approvalCodec, idempotencyCodec, merchantCodec, policyCodec, SPEND_ENTITY } from './items/ledger-codecs.js';
import { periodLimitDenied } from '../domain/policies/policy-rules.js';
import type { PeriodLimitCheck } from '../domain/policies/policy-types.js';
import { TTL_ATTRIBUTE } from './table-schema.js';
import { keys, type ItemKey } from './keys.js';
import type { TransactWrite } from './transact.js';

/**
 * Turns the changes a service decided into the items of one TransactWriteItems call, each with
 * its condition and the error a failed condition means.
 */
export function toTransactWrites(tableName: string, changes: Change[]): TransactWrite[] {
  return changes.flatMap((change) => writesOf(tableName, change));
}

const update = (tableName: string, key: ItemKey, expression: string, condition: string, values: Record<string, unknown>, names: Record<string, string> | undefined, onConditionFailed: TransactWrite['onConditionFailed']): TransactWrite => ({
  item: {
    Update: {
      TableName: tableName,
      Key: key,
      UpdateExpression: expression,
      ConditionExpression: condition,
      ExpressionAttributeValues: values,
      ...(names ? { ExpressionAttributeNames: names } : {}),
    },
  },
  onConditionFailed,
});

function setFields(fields: Record<string, unknown>, prefix: string): { sets: string[]; names: Record<string, string>; values: Record<string, unknown> } {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets = Object.entries(fields)
    .filter(([, value]) => value !== undefined)
    .map(([field, value]) => {
      names[`#${prefix}${field}`] = field;
      values[`:${prefix}${field}`] = value;
      return `#${prefix}${field} = :${prefix}${field}`;
    });
  return { sets, names, values };
}

const mustNotExist = 'attribute_not_exists(PK)';
const duplicate = (what: string) => () => new Error(`${what} already exists (id collision)`);

function put(tableName: string, item: Item, conditionFailed?: TransactWrite['onConditionFailed']): TransactWrite {
  return {
    item: { Put: { TableName: tableName, Item: item, ConditionExpression: mustNotExist } },
    onConditionFailed: conditionFailed ?? duplicate(String(item.PK)),
  };
}

function writesOf(tableName: string, change: Change): TransactWrite[] | TransactWrite {
  switch (change.type) {
    case 'createOrganization':
      return [put(tableName, organizationCodec.toItem(change.organization))];
    case 'updateOrganization': {
      const { id, name: _name, createdAt: _createdAt, ...fields } = change.organization;
      const names: Record<string, string> = {};
      const values: Record<string, unknown> = {};
      const sets = Object.entries(fields)
        .filter(([, value]) => value !== undefined)
        .map(([field, value]) => {
          names[`#${field}`] = field;
          values[`:${field}`] = value;
          return `#${field} = :${field}`;
        });
      return [
        {
          item: {
            Update: {
              TableName: tableName,
              Key: keys.organization(id),
              UpdateExpression: `SET ${sets.join(', ')}`,
              ConditionExpression: 'attribute_exists(PK)',
              ExpressionAttributeNames: names,
              ExpressionAttributeValues: values,
            },
          },
          onConditionFailed: () => new ApiError('ORGANIZATION_NOT_FOUND'),
        },
      ];
    }
    case 'createEnvironment':
      return [
        put(
          tableName,
          {
            ...keys.organizationEnvironment(change.organizationId, change.environment),
            entityType: ENTITY.environment,
            organizationId: change.organizationId,
            environment: change.environment,
            mainWalletId: change.mainWalletId,
            walletCount: 1,
          },
          () => new ApiError('INVALID_STATE', `The ${change.environment.toLowerCase()} environment already exists.`),
        ),
      ];
    case 'reserveWalletSlot':
      return [
        {
          item: {
            Update: {
              TableName: tableName,
              Key: keys.organizationEnvironment(change.organizationId, change.environment),
              UpdateExpression: 'ADD walletCount :one',
              ConditionExpression: 'attribute_exists(PK) AND walletCount < :limit',
              ExpressionAttributeValues: { ':one': 1, ':limit': change.limit },
            },
          },
          onConditionFailed: () =>
            new ApiError('WALLET_LIMIT_EXCEEDED', `At most ${change.limit} wallets per environment.`, { limit: change.limit }),
        },
      ];
    case 'createWallet':
      return [put(tableName, walletCodec.toItem(change.wallet))];
    case 'createApiKey':
      return [put(tableName, apiKeyCodec.toItem(change.apiKey)), put(tableName, apiKeyCodec.pointerItem(change.apiKey))];
    case 'revokeApiKey':
      return [
        {
          item: {
            Update: {
              TableName: tableName,
              Key: keys.apiKeyByHash(change.apiKey.hash),
              UpdateExpression: 'SET #status = :revoked, revokedAt = :at',
              ConditionExpression: '#status = :active',
              ExpressionAttributeNames: { '#status': 'status' },
              ExpressionAttributeValues: { ':revoked': 'REVOKED', ':active': 'ACTIVE', ':at': change.revokedAt },
            },
          },
          onConditionFailed: () => new ApiError('INVALID_STATE', 'The API key is already revoked.'),
        },
      ];
    case 'posting':
      return postingWrites(tableName, change.posting);
    case 'idempotency':
      return {
        item: {
          Put: {
            TableName: tableName,
            Item: idempotencyCodec.toItem(change.record),
            // An expired record that TTL has not removed yet may be replaced.
            ConditionExpression: 'attribute_not_exists(PK) OR expiresAtEpochS < :nowEpochS',
            ExpressionAttributeValues: { ':nowEpochS': Math.floor(new Date(change.record.createdAt).getTime() / 1000) },
          },
        },
        onConditionFailed: () => new ApiError('IDEMPOTENCY_KEY_IN_USE', 'A request with this idempotency key was processed concurrently.'),
      };
    case 'createTransaction': {
      const t = change.transaction;
      return put(tableName, transactionItem(t as unknown as TransactionRecord));
    }
    case 'setTransactionStatus': {
      const { sets, names, values } = setFields({ ...(change.fields ?? {}), status: change.to }, 'f_');
      return update(
        tableName,
        keys.transaction(change.transactionId),
        `SET ${sets.join(', ')}`,
        '#f_status = :expected',
        { ...values, ':expected': change.from },
        names,
        (old) =>
          change.onMismatch === 'REVERSAL_NOT_ALLOWED'
            ? new ApiError('REVERSAL_NOT_ALLOWED', `The transaction is ${String(old?.status ?? 'unknown')} and cannot be reversed.`, { status: old?.status })
            : new ApiError('INVALID_STATE', `The transaction is ${String(old?.status ?? 'unknown')}.`, { status: old?.status }),
      );
    }
    case 'putPolicy': {
      const policyWrite: TransactWrite = {
        item: {
          Put: {
            TableName: tableName,
            Item: policyCodec.toItem(change.policy),
            ConditionExpression: change.isNew ? 'attribute_not_exists(PK)' : 'attribute_exists(PK)',
          },
        },
        onConditionFailed: () => new ApiError('POLICY_NOT_FOUND'),
      };
      return change.isNew ? [policyWrite, put(tableName, policyCodec.pointerItem(change.policy))] : [policyWrite];
    }
    case 'createApproval':
      return put(tableName, approvalCodec.toItem(change.approval));
    case 'decideApproval': {
      const { id: _id, ...fields } = change.approval;
      const { sets, names, values } = setFields(fields, 'a_');
      return update(
        tableName,
        keys.approval(change.approval.id),
        `SET ${sets.join(', ')} REMOVE GSI2PK, GSI2SK`,
        '#a_status = :pending',
        { ...values, ':pending': 'PENDING' },
        names,
        (old) => new ApiError('INVALID_STATE', `The approval is already ${String(old?.status ?? 'decided')}.`, { status: old?.status }),
      );
    }
    case 'putMerchant':
      return {
        item: {
          Put: {
            TableName: tableName,
            Item: merchantCodec.toItem(change.merchant),
            ConditionExpression: change.isNew ? 'attribute_not_exists(PK)' : 'organizationId = :org',
            ...(change.isNew ? {} : { ExpressionAttributeValues: { ':org': change.merchant.organizationId } }),
          },
        },
        onConditionFailed: () => new ApiError('INVALID_STATE', 'The merchant domain was claimed concurrently.', { field: 'domain' }),
      };
    case 'updateWallet': {
      const { sets, names, values } = setFields(change.set, 'w_');
      const statuses = change.from.map((_, i) => `:from${i}`);
      const conditions = ['attribute_exists(PK)', 'attribute_not_exists(deletedAt)', `#w_state IN (${statuses.join(', ')})`];
      const conditionValues: Record<string, unknown> = Object.fromEntries(change.from.map((status, i) => [`:from${i}`, status]));
      if (change.expectedActiveKeyId) {
        conditions.push('activeKeyId = :expectedKey');
        conditionValues[':expectedKey'] = change.expectedActiveKeyId;
      }
      if (change.expectedBalance) {
        conditions.push('balance = :expectedBalance');
        conditionValues[':expectedBalance'] = toNumberAttribute(change.expectedBalance);
      }
      return update(tableName, keys.wallet(change.walletId), `SET ${sets.join(', ')}`, conditions.join(' AND '), { ...values, ...conditionValues }, { ...names, '#w_state': 'status' }, (old) => {
        if (!old) return new ApiError('WALLET_NOT_FOUND');
        if (old.deletedAt) return new ApiError('INVALID_STATE', 'The agent is deleted.', { deletedAt: old.deletedAt });
        if (change.expectedActiveKeyId && old.activeKeyId !== change.expectedActiveKeyId) return new ApiError('INVALID_STATE', 'The key was rotated concurrently; retry.');
        if (change.expectedBalance && !readBig(old.balance).eq(change.expectedBalance)) return new ApiError('INVALID_STATE', 'The balance changed while deleting; retry.');
        return new ApiError('INVALID_STATE', `The wallet is ${String(old.status)}.`, { status: old.status });
      });
    }
    case 'audit':
      return [put(tableName, auditCodec.toItem(change.entry))];
    case 'event':
      return [put(tableName, outboxCodec.toItem(change.event))];
  }
}

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
function postingWrites(tableName: string, posting: Posting): TransactWrite[] {
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

type TransactionRecord = Record<string, unknown> & { id: string; type: string; organizationId: string; environment: 'SANDBOX' | 'PRODUCTION'; createdAt: string; from: string; to: string; payeeOrganizationId?: string };

function transactionItem(record: TransactionRecord): Item {
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
    'attribute_not_exists(spent) OR spent <= :ceiling',
    {
      ':amount': toNumberAttribute(check.amount),
      ':ceiling': toNumberAttribute(check.limit.minus(check.amount)),
      ':type': SPEND_ENTITY,
      ':wallet': check.walletId,
      ':period': check.period,
      ':key': check.periodKey,
      ':ttl': check.expiresAtEpochS,
    },
    { '#ttl': TTL_ATTRIBUTE },
    (old) => periodLimitDenied(check, old?.spent === undefined ? check.limit : readBig(old.spent)),
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
