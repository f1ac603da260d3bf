import type { Change } from '../domain/changes.js';
import { ApiError } from '../domain/errors.js';
import { readBig, toNumberAttribute } from './client.js';
import { apiKeyCodec, auditCodec, ENTITY, organizationCodec, outboxCodec, walletCodec } from './items/codecs.js';
import { approvalCodec, idempotencyCodec, merchantCodec, policyCodec } from './items/ledger-codecs.js';
import { keys } from './keys.js';
import { postingWrites, transactionItem, type TransactionRecord } from './posting-writes.js';
import type { TransactWrite } from './transact.js';
import { put, setFields, update } from './write-builders.js';

/**
 * Turns the changes a service decided into the items of one TransactWriteItems call, each with
 * its condition and the error a failed condition means.
 */
export function toTransactWrites(tableName: string, changes: Change[]): TransactWrite[] {
  return changes.flatMap((change) => writesOf(tableName, change));
}

function writesOf(tableName: string, change: Change): TransactWrite[] | TransactWrite {
  switch (change.type) {
    case 'createOrganization':
      return [put(tableName, organizationCodec.toItem(change.organization))];
    case 'updateOrganization': {
      const { sets, names, values } = setFields(change.set, 'o_');
      const unless = change.unless;
      const condition =
        unless === undefined
          ? 'attribute_exists(PK)'
          : unless.field === 'productionActivatedAt'
            ? 'attribute_exists(PK) AND attribute_not_exists(productionActivatedAt)'
            : 'attribute_exists(PK) AND kybStatus <> :unlessKyb';
      const conditionValues = unless?.field === 'kybStatus' ? { ':unlessKyb': unless.equals } : {};
      return update(tableName, keys.organization(change.organizationId), `SET ${sets.join(', ')}`, condition, { ...values, ...conditionValues }, names, (old) =>
        old ? new ApiError('INVALID_STATE', 'The organization changed meanwhile (already activated or verified).') : new ApiError('ORGANIZATION_NOT_FOUND'),
      );
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
            ConditionExpression: change.isNew ? 'attribute_not_exists(PK)' : `organizationId = :org${change.expectedStatus ? ' AND #status = :expectedStatus' : ''}`,
            ...(change.isNew
              ? {}
              : {
                  ExpressionAttributeValues: { ':org': change.merchant.organizationId, ...(change.expectedStatus ? { ':expectedStatus': change.expectedStatus } : {}) },
                  ...(change.expectedStatus ? { ExpressionAttributeNames: { '#status': 'status' } } : {}),
                }),
          },
        },
        onConditionFailed: () => new ApiError('INVALID_STATE', 'The merchant profile changed concurrently (claimed or suspended); read it again.', { field: 'domain' }),
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
