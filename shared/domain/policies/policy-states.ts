import type { StateTable } from '../state-table.js';
import type { Policy } from './policy-types.js';

export type PolicyTrigger = 'delete';

/** A policy is created ACTIVE; a deleted one stops applying at once and stays stored for the audit trail. */
export const POLICY_STATES = {
  delete: { from: ['ACTIVE'], to: 'DELETED' },
} as const satisfies StateTable<Policy['status'], PolicyTrigger>;
