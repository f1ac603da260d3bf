import type { DisputeChange } from '../../domain/disputes/changes.js';
import { DISPUTE_STATES } from '../../domain/disputes/dispute-states.js';
import { ApiError } from '../../domain/errors.js';
import { disputeCodec, disputeKeys, fundsRefusalsCodec } from '../entities/dispute.js';
import { CONFLICT_RETRY_AFTER_S } from '../transact.js';
import { transactionKeys } from '../entities/transaction.js';
import { put, transitionUpdate, update, type ChangeWriters } from '../write-builders.js';

/**
 * The disputed payment's mark refused: disputed already (by a racing opening), or no longer a
 * POSTED payment (a racing reversal).
 */
const notDisputable = (old: Record<string, unknown> | undefined) => {
  if (typeof old?.disputeId === 'string')
    return new ApiError('DISPUTE_EXISTS', undefined, { disputeId: old.disputeId });
  return new ApiError('INVALID_STATE', `The payment is ${String(old?.status ?? 'unknown')}.`, { status: old?.status });
};

export const disputeWriters: ChangeWriters<DisputeChange> = {
  /**
   * The dispute, and its payment's journal record marked with its id, only while that record is a
   * POSTED PAYMENT without a dispute: at most one dispute per payment, and a reversal (whose
   * condition asks for no `disputeId`) racing it loses, or wins and this fails.
   */
  putDispute: (tableName, change) => [
    put(tableName, disputeCodec.toItem(change.dispute)),
    update(
      tableName,
      transactionKeys.primary(change.dispute.transactionId),
      'SET disputeId = :dispute',
      'attribute_exists(PK) AND #status = :posted AND #type = :payment AND attribute_not_exists(disputeId)',
      { ':dispute': change.dispute.id, ':posted': 'POSTED', ':payment': 'PAYMENT' },
      { '#status': 'status', '#type': 'type' },
      notDisputable,
    ),
  ],

  transitionDispute: (tableName, change) => {
    const { status: _ignored, ...fields } = change.set;
    const { from, to } = DISPUTE_STATES[change.trigger];
    const read = change.read;
    return [
      transitionUpdate(
        tableName,
        disputeKeys.primary(change.disputeId),
        {
          from: read ? from.filter((status) => status === read) : from,
          to,
        },
        {
          set: fields,
          condition: 'attribute_exists(PK)',
          onConditionFailed: (old) =>
            old
              ? new ApiError('INVALID_STATE', `The dispute is ${String(old.status)}.`, { status: old.status })
              : new ApiError('DISPUTE_NOT_FOUND'),
        },
      ),
    ];
  },

  /** The counter, only while it is what the service read (a racing refusal: CONCURRENT_UPDATE, retried by the caller). */
  countFundsRefusal: (tableName, { transactionId, refusals, previous }) => [
    {
      item: {
        Put: {
          TableName: tableName,
          Item: fundsRefusalsCodec.toItem(transactionId, refusals),
          ConditionExpression: previous ? '#count = :count AND #since = :since' : 'attribute_not_exists(PK)',
          ...(previous && {
            ExpressionAttributeNames: { '#count': 'count', '#since': 'since' },
            ExpressionAttributeValues: { ':count': previous.count, ':since': previous.since },
          }),
        },
      },
      onConditionFailed: () => new ApiError('CONCURRENT_UPDATE', undefined, { retryAfter: CONFLICT_RETRY_AFTER_S }),
    },
  ],
};
