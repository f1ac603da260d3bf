import type { EventDeclarations, EventWallets } from '../events/event-declaration.js';
import { approvalView } from './approval-view.js';

/** The approvals' events (docs/architecture.md "Events"): payload and when each is committed. */
export const APPROVAL_EVENTS = {
  'approval.requested': { payload: approvalView, occasion: 'A payment above a policy\'s approval threshold was queued for approval (`202 APPROVAL_REQUIRED`).' },
  'approval.approved': { payload: approvalView, occasion: 'A queued payment was approved (it then posts, or fails with `payment.failed`).' },
  'approval.rejected': { payload: approvalView, occasion: 'A queued payment was rejected; it will not post.' },
  'approval.expired': { payload: approvalView, occasion: 'A queued payment was not decided in time; it will not post (`failureCode: APPROVAL_EXPIRED`).' },
} as const satisfies EventDeclarations;

/** The paying wallet (not the payee: the approval is the payer's). */
const payingWallet = (data: { walletId: string }) => [data.walletId];

/** The wallets each approval event concerns. */
export const APPROVAL_EVENT_WALLETS = {
  'approval.requested': payingWallet,
  'approval.approved': payingWallet,
  'approval.rejected': payingWallet,
  'approval.expired': payingWallet,
} as const satisfies EventWallets<typeof APPROVAL_EVENTS>;
