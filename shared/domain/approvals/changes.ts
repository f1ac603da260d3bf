import type { Approval } from '../types.js';
import type { ApprovalTrigger } from './approval-states.js';

/** The approvals area's changes (a leaf: the payment store writes them too). */
export type ApprovalChange =
  | { type: 'createApproval'; approval: Approval }
  /** Decides an approval by a trigger of APPROVAL_STATES; a second decision fails with INVALID_STATE. */
  | { type: 'decideApproval'; approval: Approval; trigger: ApprovalTrigger };
