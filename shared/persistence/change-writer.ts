import type { Change } from '../domain/changes.js';
import { ApiError } from '../domain/errors.js';
import { assertBalanced, type Leg, type Posting } from '../domain/ledger/posting.js';
import { formatBalance } from '../domain/money.js';
import { readBig, toNumberAttribute } from './client.js';
import { apiKeyCodec, auditCodec, ENTITY, organizationCodec, outboxCodec, walletCodec, type Item } from './items/codecs.js';
import { keys } from './keys.js';
import type { TransactWrite } from './transact.js';

/**
 * Turns the changes a service decided into the items of one TransactWriteItems call, each with
 * its condition and the error a failed condition means.
 */
export function toTransactWrites(tableName: string, changes: Change[]): TransactWrite[] {
  return changes.flatMap((change) => writesOf(tableName, change));
}

const mustNotExist = 'attribute_not_exists(PK)';
const duplicate = (what: string) => () => new Error(`${what} already exists (id collision)`);

function put(tableName: string, item: Item, conditionFailed?: TransactWrite['onConditionFailed']): TransactWrite {
  return {
    item: { Put: { TableName: tableName, Item: item, ConditionExpression: mustNotExist } },
    onConditionFailed: conditionFailed ?? duplicate(String(item.PK)),
  };
}

function writesOf(tableName: string, change: Change): TransactWrite[] {
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
    if (leg.account.kind === 'WALLET') writes.push(walletBalanceUpdate(tableName, posting, leg.account.walletId, leg));
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
  writes.push(
    put(tableName, {
      ...keys.transaction(posting.transactionId),
      ...keys.transactionsOfOrganization(posting.organizationId, posting.environment),
      ...keys.transactionListSort(posting.createdAt, posting.transactionId),
      entityType: ENTITY.transaction,
      id: posting.transactionId,
      type: posting.type,
      organizationId: posting.organizationId,
      environment: posting.environment,
      currency: posting.currency,
      createdAt: posting.createdAt,
      description: posting.description,
      ...posting.attributes,
    }),
  );
  return writes;
}

function walletBalanceUpdate(tableName: string, posting: Posting, walletId: string, leg: Leg): TransactWrite {
  const debit = leg.amount.lt(0);
  const requested = leg.amount.abs();
  const conditions = ['attribute_exists(PK)', '#status = :active', 'environment = :environment'];
  const values: Record<string, unknown> = {
    ':delta': toNumberAttribute(leg.amount),
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
        UpdateExpression: 'ADD balance :delta',
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
        requested: formatBalance(requested),
      });
    },
  };
}
