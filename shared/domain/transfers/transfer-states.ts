import { terminalStatesOf, type StateTable } from '../state-table.js';
import type { ClearingStatus, TransferStatus } from './types.js';

/**
 * Transfer states (interface-spec 3.3, decisions.md section 4): submitted to the rail
 * (INITIATED -> PENDING) or rejected by it (-> FAILED); settled (PENDING -> COMPLETED), failed at
 * settlement (-> FAILED) or cancelled before it (-> CANCELLED). Each write of a transfer's status
 * is conditioned on the trigger's `from` states, so a cancel and a settlement racing each other
 * can not both happen.
 */
export type TransferTrigger = 'submit' | 'reject' | 'complete' | 'fail' | 'cancel';

export const TRANSFER_STATES = {
  submit: { from: ['INITIATED'], to: 'PENDING' },
  reject: { from: ['INITIATED'], to: 'FAILED' },
  complete: { from: ['PENDING'], to: 'COMPLETED' },
  fail: { from: ['PENDING'], to: 'FAILED' },
  cancel: { from: ['PENDING'], to: 'CANCELLED' },
} as const satisfies StateTable<TransferStatus, TransferTrigger>;

/** Where a transfer ends (no trigger leaves them): the transfer workflow is done when a step answers one (lib/workflows/transfer-workflow.ts). */
export const TRANSFER_END_STATUSES = terminalStatesOf(TRANSFER_STATES);

/** The clearing of an ACH deposit after COMPLETED: its funds are released once. */
export const CLEARING_STATES = {
  release: { from: ['PENDING'], to: 'AVAILABLE' },
} as const satisfies StateTable<ClearingStatus, 'release'>;
