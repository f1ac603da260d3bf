import { ApiError } from '../../domain/errors.js';
import type { SignInItemChange } from '../../domain/sign-in/ports.js';
import { credentialsCodec, sessionCodec, signInKeys } from '../entities/sign-in.js';
import { put, setFields, update, type ChangeWriters } from '../write-builders.js';

const changedMeanwhile = () => new ApiError('CONCURRENT_UPDATE', 'Your sign-in settings changed meanwhile; try again.');

export const signInWriters: ChangeWriters<SignInItemChange> = {
  putCredentials: (tableName, change) => {
    const item = credentialsCodec.toItem(change.credentials);
    return [
      {
        item: {
          Put: {
            TableName: tableName,
            Item: item,
            ConditionExpression: change.expectUpdatedAt === null ? 'attribute_not_exists(PK)' : 'updatedAt = :expected',
            ...(change.expectUpdatedAt === null
              ? {}
              : { ExpressionAttributeValues: { ':expected': change.expectUpdatedAt } }),
          },
        },
        onConditionFailed: changedMeanwhile,
      },
    ];
  },
  putSession: (tableName, change) => [put(tableName, sessionCodec.toItem(change.session))],
  updateSession: (tableName, change) => {
    const { sets, names, values } = setFields(change.set, 's_');
    return [
      update(
        tableName,
        signInKeys.session(change.hash),
        `SET ${sets.join(', ')}`,
        'attribute_exists(PK) AND attribute_not_exists(revokedAt)',
        values,
        names,
        () => new ApiError('UNAUTHORIZED', 'The session has ended.'),
      ),
    ];
  },
};
