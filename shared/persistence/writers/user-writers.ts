import { ApiError } from '../../domain/errors.js';
import type { UserChange } from '../../domain/users/changes.js';
import { USER_ROSTER_ENTITY, userCodec, userEmailCodec, userKeys } from '../entities/user.js';
import { CONFLICT_RETRY_AFTER_S, type TransactWrite } from '../transact.js';
import { put, update, type ChangeWriters } from '../write-builders.js';

const userExists = () => new ApiError('USER_EXISTS', undefined, { field: 'email' });

/** The user item as given, over the stored status (and invitation): a full put with a condition. */
function replaceUser(tableName: string, change: Extract<UserChange, { type: 'updateUser' }>): TransactWrite {
  const invitation = change.invitationHash === undefined ? '' : ' AND invitationHash = :invitation';
  return {
    item: {
      Put: {
        TableName: tableName,
        Item: userCodec.toItem(change.user),
        ConditionExpression: `attribute_exists(PK) AND #status = :expect${invitation}`,
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':expect': change.expect,
          ...(change.invitationHash === undefined ? {} : { ':invitation': change.invitationHash }),
        },
      },
    },
    onConditionFailed: (old) =>
      old
        ? new ApiError('INVALID_STATE', 'The user changed meanwhile (accepted, removed or invited again).', {
            status: old.status,
          })
        : new ApiError('USER_NOT_FOUND'),
  };
}

export const userWriters: ChangeWriters<UserChange> = {
  /** The user and its email's slot in the organization: an email held already fails the whole transaction. */
  putUser: (tableName, change) => [
    put(tableName, userCodec.toItem(change.user)),
    put(tableName, userEmailCodec.toItem(change.user), userExists),
  ],

  /** Leaving INVITED or ACTIVE for REMOVED frees the email's slot (only this user's). */
  updateUser: (tableName, change) => {
    const frees = change.user.status === 'REMOVED' && change.expect !== 'REMOVED';
    return [
      replaceUser(tableName, change),
      ...(frees
        ? [
            {
              item: {
                Delete: {
                  TableName: tableName,
                  Key: userKeys.email(change.user.organizationId, change.user.email),
                  ConditionExpression: 'userId = :user',
                  ExpressionAttributeValues: { ':user': change.user.id },
                },
              },
              onConditionFailed: () => new ApiError('INVALID_STATE', 'The user changed meanwhile.'),
            },
          ]
        : []),
    ];
  },

  lockRoster: (tableName, change) => [
    update(
      tableName,
      userKeys.roster(change.organizationId),
      'SET version = :next, entityType = :entity',
      change.version === 0 ? 'attribute_not_exists(version) OR version = :read' : 'version = :read',
      { ':read': change.version, ':next': change.version + 1, ':entity': USER_ROSTER_ENTITY },
      undefined,
      () =>
        new ApiError('CONCURRENT_UPDATE', 'The team changed meanwhile; retry.', { retryAfter: CONFLICT_RETRY_AFTER_S }),
    ),
  ],
};
