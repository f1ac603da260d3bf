import { ApiError } from '../../domain/errors.js';
import { fromStatesOf, targetOf } from '../../domain/state-table.js';
import type { TransferChange } from '../../domain/transfers/ports.js';
import { CLEARING_STATES, TRANSFER_STATES } from '../../domain/transfers/transfer-states.js';
import { transferCodec, transferKeys } from '../entities/transfer.js';
import { inStates, put, transitionUpdate, update, type ChangeWriters } from '../write-builders.js';

/**
 * A transfer's writes. Every status change is conditioned on the state table's `from` states of
 * its trigger, in the same transaction as the movement it makes (capture, void, credit): a cancel
 * and a settlement racing each other can not both commit.
 */
export const transferWriters: ChangeWriters<TransferChange> = {
  putTransfer: (tableName, change) => [put(tableName, transferCodec.toItem(change.transfer))],
  transitionTransfer: (tableName, change) => {
    const { status: _ignored, ...fields } = change.set;
    // Work still ahead (a reconcileAt): listed for the reconciler; none: off its list.
    const open = change.set.reconcileAt
      ? { ...transferKeys.open(change.transferId), ...transferKeys.openSort(change.set.reconcileAt, change.transferId) }
      : {};
    return [
      transitionUpdate(tableName, transferKeys.primary(change.transferId), TRANSFER_STATES[change.trigger], {
        set: { ...fields, ...open },
        remove: change.set.reconcileAt ? [] : ['reconcileAt', 'GSI4PK', 'GSI4SK'],
        condition: 'attribute_exists(PK)',
        onConditionFailed: (old) =>
          old
            ? new ApiError('INVALID_STATE', `The transfer is ${String(old.status)}.`, { status: old.status })
            : new ApiError('TRANSFER_NOT_FOUND'),
      }),
    ];
  },
  releaseClearing: (tableName, change) => {
    const from = inStates('clearing', fromStatesOf(CLEARING_STATES, 'release'), ':from');
    return [
      update(
        tableName,
        transferKeys.primary(change.transferId),
        'SET clearing = :to REMOVE reconcileAt, GSI4PK, GSI4SK',
        `attribute_exists(PK) AND ${from.condition}`,
        { ...from.values, ':to': targetOf(CLEARING_STATES, 'release') },
        undefined,
        (old) =>
          new ApiError('INVALID_STATE', `The clearing is ${String(old?.clearing ?? 'not pending')}.`, {
            clearing: old?.clearing,
          }),
      ),
    ];
  },
  deferReconcile: (tableName, change) => [
    update(
      tableName,
      transferKeys.primary(change.transferId),
      'SET reconcileAt = :at, GSI4PK = :partition, GSI4SK = :sort',
      'attribute_exists(GSI4PK) AND #status = :status',
      {
        ':at': change.reconcileAt,
        ':partition': transferKeys.open(change.transferId).GSI4PK,
        ':sort': transferKeys.openSort(change.reconcileAt, change.transferId).GSI4SK,
        ':status': change.status,
      },
      { '#status': 'status' },
      // It moved meanwhile (the workflow caught up): nothing to defer.
      () => new ApiError('INVALID_STATE', 'The transfer moved meanwhile.'),
    ),
  ],
};
