import type { StateTable } from '../state-table.js';
import type { ApprovalStatus } from '../types.js';

export type ApprovalTrigger = 'approve' | 'reject' | 'expire' | 'fail';

/**
 * An approval is created PENDING and decided once: approved (the payment posts), rejected,
 * expired (by the scheduled job, or when decided too late) or failed (the approved payment could
 * not post). A second decision finds it no longer PENDING.
 */
export const APPROVAL_STATES = {
  approve: { from: ['PENDING'], to: 'APPROVED' },
  reject: { from: ['PENDING'], to: 'REJECTED' },
  expire: { from: ['PENDING'], to: 'EXPIRED' },
  fail: { from: ['PENDING'], to: 'FAILED' },
} as const satisfies StateTable<ApprovalStatus, ApprovalTrigger>;
