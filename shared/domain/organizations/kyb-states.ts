import type { StateTable } from '../state-table.js';
import type { KybStatus } from '../types.js';

export type KybTrigger = 'submit' | 'autoVerify' | 'verify' | 'reject';

const ANY: readonly KybStatus[] = ['NOT_SUBMITTED', 'PENDING', 'VERIFIED', 'REJECTED'];

/**
 * Business verification of an organization. It may be submitted (again) until it is VERIFIED;
 * with KYB auto-approval (sandbox runs) a submission verifies at once. The operator's decision
 * applies whatever the status.
 */
export const KYB_STATES = {
  submit: { from: ['NOT_SUBMITTED', 'PENDING', 'REJECTED'], to: 'PENDING' },
  autoVerify: { from: ['NOT_SUBMITTED', 'PENDING', 'REJECTED'], to: 'VERIFIED' },
  verify: { from: ANY, to: 'VERIFIED' },
  reject: { from: ANY, to: 'REJECTED' },
} as const satisfies StateTable<KybStatus, KybTrigger>;
