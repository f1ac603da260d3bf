import { ApiError } from '../../domain/errors.js';
import type { MerchantChange } from '../../domain/merchants/ports.js';
import { merchantCodec } from '../entities/merchant.js';
import type { ChangeWriters } from '../write-builders.js';

export const merchantWriters: ChangeWriters<MerchantChange> = {
  /** A new profile must not exist; an update keeps the owner (and the status read, when given). */
  putMerchant: (tableName, change) => [
    {
      item: {
        Put: {
          TableName: tableName,
          Item: merchantCodec.toItem(change.merchant),
          ConditionExpression: change.isNew
            ? 'attribute_not_exists(PK)'
            : `organizationId = :org${change.expectedStatus ? ' AND #status = :expectedStatus' : ''}`,
          ...(change.isNew
            ? {}
            : {
                ExpressionAttributeValues: {
                  ':org': change.merchant.organizationId,
                  ...(change.expectedStatus ? { ':expectedStatus': change.expectedStatus } : {}),
                },
                ...(change.expectedStatus ? { ExpressionAttributeNames: { '#status': 'status' } } : {}),
              }),
        },
      },
      onConditionFailed: () =>
        new ApiError(
          'INVALID_STATE',
          'The merchant profile changed concurrently (claimed or suspended); read it again.',
          { field: 'domain' },
        ),
    },
  ],
};
