import { eventsOf } from '../events/event-declaration.js';
import type * as views from './transfer-view.js';

/** The wallet a transfer credits or debits (the one its clearing concerns). */
const transferWallet = (data: { walletId: string }) => [data.walletId];

/** The transfers' events (docs/architecture.md "Events"): payload view, when each is committed, the wallets it concerns. */
export const TRANSFER_EVENTS = eventsOf<typeof views>()({
  'deposit.initiated': {
    payload: 'transferView',
    occasion: 'A deposit was submitted to its rail (status PENDING).',
    wallets: transferWallet,
  },
  'deposit.completed': {
    payload: 'transferView',
    occasion: 'A deposit settled and credited its wallet (ACH: into `pendingBalance` until it clears).',
    wallets: transferWallet,
  },
  'deposit.failed': {
    payload: 'transferView',
    occasion: 'A deposit was rejected by its rail or failed to settle.',
    wallets: transferWallet,
  },
  'deposit.cancelled': {
    payload: 'transferView',
    occasion: 'A pending deposit was cancelled (`POST /v1/transfers/{id}/cancel`).',
    wallets: transferWallet,
  },
  'withdrawal.initiated': {
    payload: 'transferView',
    occasion: 'A withdrawal was submitted to its rail; amount and fee are held.',
    wallets: transferWallet,
  },
  'withdrawal.completed': {
    payload: 'transferView',
    occasion: 'A withdrawal settled; its hold was captured.',
    wallets: transferWallet,
  },
  'withdrawal.failed': {
    payload: 'transferView',
    occasion: 'A withdrawal was rejected by its rail or failed to settle; amount and fee are back.',
    wallets: transferWallet,
  },
  'withdrawal.cancelled': {
    payload: 'transferView',
    occasion: 'A pending withdrawal was cancelled; amount and fee are back.',
    wallets: transferWallet,
  },
  'wallet.funds_pending': {
    payload: 'walletFundsPendingEventView',
    occasion: 'A completed ACH deposit started clearing: its net amount is in `pendingBalance`.',
    wallets: transferWallet,
  },
  'wallet.funds_available': {
    payload: 'walletFundsAvailableEventView',
    occasion: 'The clearing of an ACH deposit ended: its amount moved to `balance`.',
    wallets: transferWallet,
  },
});
