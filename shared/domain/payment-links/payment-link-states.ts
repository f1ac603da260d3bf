import { terminalStatesOf, type StateTable } from '../state-table.js';
import type { PaymentLinkStatus } from './types.js';

export type PaymentLinkTrigger =
  'approve' | 'refuse' | 'claimToWallet' | 'claim' | 'settle' | 'unclaim' | 'expire' | 'lapse' | 'cancel';

/**
 * Payment link states (interface-spec 3.4, decisions.md section 6; docs/api.md "Payment links").
 *
 * - approve / refuse: a link queued for human approval (its hold already taken) becomes ACTIVE, or
 *   CANCELLED with its hold released (approval rejected, expired or failed);
 * - claimToWallet: a wallet claim posts at once (ACTIVE -> SETTLED in one transaction, with both
 *   `payment_link.claimed` and `payment_link.settled`);
 * - claim / settle: an ach or usdc claim starts a transfer (CLAIMED) that settles the link when it completes;
 * - unclaim: that transfer failed (or was cancelled): the link is ACTIVE again, its hold intact;
 * - lapse: it failed after `expiresAt`: EXPIRED, the hold released;
 * - expire: `expiresAt` passed (a one-time schedule), the hold released; cancel: the owner's PATCH.
 */
export const PAYMENT_LINK_STATES = {
  approve: { from: ['PENDING_APPROVAL'], to: 'ACTIVE' },
  refuse: { from: ['PENDING_APPROVAL'], to: 'CANCELLED' },
  claimToWallet: { from: ['ACTIVE'], to: 'SETTLED' },
  claim: { from: ['ACTIVE'], to: 'CLAIMED' },
  settle: { from: ['CLAIMED'], to: 'SETTLED' },
  unclaim: { from: ['CLAIMED'], to: 'ACTIVE' },
  lapse: { from: ['CLAIMED'], to: 'EXPIRED' },
  expire: { from: ['ACTIVE', 'PENDING_APPROVAL'], to: 'EXPIRED' },
  cancel: { from: ['ACTIVE'], to: 'CANCELLED' },
} as const satisfies StateTable<PaymentLinkStatus, PaymentLinkTrigger>;

export const PAYMENT_LINK_END_STATUSES = terminalStatesOf(PAYMENT_LINK_STATES);
