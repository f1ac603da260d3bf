import { APPROVAL_STATES } from '../../domain/approvals/approval-states.js';
import type { ApprovalChange } from '../../domain/approvals/changes.js';
import { ApiError } from '../../domain/errors.js';
import { fromStatesOf } from '../../domain/state-table.js';
import { approvalCodec, approvalKeys, PENDING_APPROVALS_INDEX } from '../entities/approval.js';
import { inStates, put, setFields, update, type ChangeWriters } from '../write-builders.js';

export const approvalWriters: ChangeWriters<ApprovalChange> = {
  createApproval: (tableName, change) => [put(tableName, approvalCodec.toItem(change.approval))],
  /** The decided approval leaves the pending index. */
  decideApproval: (tableName, change) => {
    const { id: _id, ...fields } = change.approval;
    const { sets, names, values } = setFields(fields, 'a_');
    const from = inStates('#a_status', fromStatesOf(APPROVAL_STATES, change.trigger), ':from');
    return [
      update(
        tableName,
        approvalKeys.primary(change.approval.id),
        `SET ${sets.join(', ')} REMOVE ${PENDING_APPROVALS_INDEX.partition}, ${PENDING_APPROVALS_INDEX.sort}`,
        from.condition,
        { ...values, ...from.values },
        names,
        (old) =>
          new ApiError('INVALID_STATE', `The approval is already ${String(old?.status ?? 'decided')}.`, {
            status: old?.status,
          }),
      ),
    ];
  },
};
