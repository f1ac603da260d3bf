import { ApiError } from '../../domain/errors.js';
import type { PolicyChange } from '../../domain/policies/ports.js';
import { policyCodec, policyPointerCodec } from '../entities/policy.js';
import { CONFLICT_RETRY_AFTER_S, type TransactWrite } from '../transact.js';
import { walletKeys } from '../entities/wallet.js';
import { put, update, type ChangeWriters } from '../write-builders.js';

/**
 * A new policy is written as version 1 (with its pointer); a change only over the version it read
 * (0: a policy written before versioning, which has no `version` attribute), so of two concurrent
 * writes the second fails: a lost update or a deleted policy brought back is impossible.
 *
 * Every policy write (create, update, delete) also bumps its wallet's `policyVersion`, cold or hot:
 * a hot wallet's lane quota granted under another version refuses limited debits, which then take
 * the exact slow path (docs/architecture.md "Hot wallets").
 */
export const policyWriters: ChangeWriters<PolicyChange> = {
  putPolicy: (tableName, change) => {
    if (change.isNew) {
      const policy = { ...change.policy, version: change.policy.version ?? 1 };
      return [
        put(
          tableName,
          policyCodec.toItem(policy),
          () => new Error(`policy ${policy.id} already exists (id collision)`),
        ),
        put(tableName, policyPointerCodec.toItem(policy)),
        ...(change.withNewWallet ? [] : [policyVersionBump(tableName, policy.walletId)]),
      ];
    }
    const { expectedVersion } = change;
    const policyWrite: TransactWrite = {
      item: {
        Put: {
          TableName: tableName,
          Item: policyCodec.toItem({ ...change.policy, version: expectedVersion + 1 }),
          ConditionExpression:
            expectedVersion === 0
              ? 'attribute_exists(PK) AND attribute_not_exists(#version)'
              : '#version = :expectedVersion',
          ExpressionAttributeNames: { '#version': 'version' },
          ...(expectedVersion === 0 ? {} : { ExpressionAttributeValues: { ':expectedVersion': expectedVersion } }),
        },
      },
      onConditionFailed: (old) =>
        old
          ? new ApiError(
              'CONCURRENT_UPDATE',
              'The policy was changed or deleted by another request since it was read; read it again and retry.',
              { retryAfter: CONFLICT_RETRY_AFTER_S },
            )
          : new ApiError('POLICY_NOT_FOUND'),
    };
    return [policyWrite, policyVersionBump(tableName, change.policy.walletId)];
  },
};

/** main's `policyVersion` + 1 (the wallet exists: a policy is only written for one). */
function policyVersionBump(tableName: string, walletId: string): TransactWrite {
  return update(
    tableName,
    walletKeys.primary(walletId),
    'ADD policyVersion :one',
    'attribute_exists(PK)',
    { ':one': 1 },
    undefined,
    () => new ApiError('WALLET_NOT_FOUND', undefined, { walletId }),
  );
}
