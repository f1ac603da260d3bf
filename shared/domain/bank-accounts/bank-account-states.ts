import type { StateTable } from '../state-table.js';
import type { BankAccountStatus } from './types.js';

export type BankAccountTrigger = 'verify' | 'failVerification' | 'delete';

/**
 * A bank account is created PENDING_VERIFICATION. The right micro-deposit amounts verify it; the
 * third wrong answer fails it for good (wrong answers before that leave it pending and are
 * counted, only from the states `verify` fires from). Any account can be deleted, after which it
 * answers as absent (BANK_ACCOUNT_NOT_FOUND).
 */
export const BANK_ACCOUNT_STATES = {
  verify: { from: ['PENDING_VERIFICATION'], to: 'VERIFIED' },
  failVerification: { from: ['PENDING_VERIFICATION'], to: 'VERIFICATION_FAILED' },
  delete: { from: ['PENDING_VERIFICATION', 'VERIFIED', 'VERIFICATION_FAILED'], to: 'DELETED' },
} as const satisfies StateTable<BankAccountStatus, BankAccountTrigger>;
