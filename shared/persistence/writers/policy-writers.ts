import { ApiError } from '../../domain/errors.js';
import type { PolicyChange } from '../../domain/policies/ports.js';
import { policyCodec, policyPointerCodec } from '../entities/policy.js';
import type { TransactWrite } from '../transact.js';
import { put, type ChangeWriters } from '../write-builders.js';

export const policyWriters: ChangeWriters<PolicyChange> = {
  putPolicy: (tableName, change) => {
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
    return change.isNew ? [policyWrite, put(tableName, policyPointerCodec.toItem(change.policy))] : [policyWrite];
  },
};
