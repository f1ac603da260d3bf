import { eventsOf } from '../events/event-declaration.js';
import type * as views from './approval-view.js';

/** The paying wallet (not the payee: the approval is the payer's). */
const payingWallet = (data: { walletId: string }) => [data.walletId];

/** The approvals' events (docs/architecture.md "Events"): payload view, when each is committed, the wallets it concerns. */
export const APPROVAL_EVENTS = eventsOf<typeof views>()({
  'approval.requested': {
    payload: 'approvalView',
    occasion:
      "A payment (or a payment link, `paymentLinkId`) that a policy's approval rule catches was queued for approval (`202 APPROVAL_REQUIRED`).",
    wallets: payingWallet,
  },
  'approval.approved': {
    payload: 'approvalView',
    occasion:
      'A queued payment was approved (it then posts, or fails with `payment.failed`); for a payment link, the link is ACTIVE.',
    wallets: payingWallet,
  },
  'approval.rejected': {
    payload: 'approvalView',
    occasion: 'A queued payment was rejected; it will not post (a payment link is CANCELLED, its hold released).',
    wallets: payingWallet,
  },
  'approval.expired': {
    payload: 'approvalView',
    occasion:
      'A queued payment was not decided in time; it will not post (`failureCode: APPROVAL_EXPIRED`; a payment link is CANCELLED, its hold released).',
    wallets: payingWallet,
  },
});
