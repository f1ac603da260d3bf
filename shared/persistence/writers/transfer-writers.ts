import { ApiError } from '../../domain/errors.js';
import { fromStatesOf, targetOf } from '../../domain/state-table.js';
import type { TransferChange } from '../../domain/transfers/ports.js';
import { CLEARING_STATES, TRANSFER_STATES } from '../../domain/transfers/transfer-states.js';
import { transferCodec, transferKeys } from '../entities/transfer.js';
import { inStates, put, setFields, update, type ChangeWriters } from '../write-builders.js';

/**
 * A transfer's writes. Every status change is conditioned on the state table's `from` states of
 * its trigger, in the same transaction as the movement it makes (capture, void, credit): a cancel
 * and a settlement racing each other can not both commit.
 */
export const transferWriters: ChangeWriters<TransferChange> = {
  putTransfer: (tableName, change) => [put(tableName, transferCodec.toItem(change.transfer))],
  transitionTransfer: (tableName, change) => {
    const { status: _ignored, ...fields } = change.set;
    const { sets, names, values } = setFields(fields, 'f_');
    const from = inStates('#status', fromStatesOf(TRANSFER_STATES, change.trigger), ':from');
    return [
      update(
        tableName,
        transferKeys.primary(change.transferId),
        `SET #status = :to${sets.length > 0 ? `, ${sets.join(', ')}` : ''}`,
        `attribute_exists(PK) AND ${from.condition}`,
        { ...values, ...from.values, ':to': targetOf(TRANSFER_STATES, change.trigger) },
        { ...names, '#status': 'status' },
        (old) => (old ? new ApiError('INVALID_STATE', `The transfer is ${String(old.status)}.`, { status: old.status }) : new ApiError('TRANSFER_NOT_FOUND')),
      ),
    ];
  },
  releaseClearing: (tableName, change) => {
    const from = inStates('clearing', fromStatesOf(CLEARING_STATES, 'release'), ':from');
    return [
      update(
        tableName,
        transferKeys.primary(change.transferId),
        'SET clearing = :to',
        `attribute_exists(PK) AND ${from.condition}`,
        { ...from.values, ':to': targetOf(CLEARING_STATES, 'release') },
        undefined,
        (old) => new ApiError('INVALID_STATE', `The clearing is ${String(old?.clearing ?? 'not pending')}.`, { clearing: old?.clearing }),
      ),
    ];
  },
};
