import type { StateTable } from '../state-table.js';
import type { PaymentStatus } from '../types.js';

export type TransactionTrigger = 'post' | 'reject' | 'fail' | 'reverse';

/**
 * A transaction record is created POSTED, or QUEUED while its payment waits for approval. A
 * queued payment posts once approved, or ends REJECTED or FAILED (could not post, or its
 * approval expired); a posted payment may be REVERSED once.
 */
export const TRANSACTION_STATES = {
  post: { from: ['QUEUED'], to: 'POSTED' },
  reject: { from: ['QUEUED'], to: 'REJECTED' },
  fail: { from: ['QUEUED'], to: 'FAILED' },
  reverse: { from: ['POSTED'], to: 'REVERSED' },
} as const satisfies StateTable<PaymentStatus, TransactionTrigger>;
