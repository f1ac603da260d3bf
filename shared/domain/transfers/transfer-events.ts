import type { EventDeclarations, EventWallets } from '../events/event-declaration.js';
import { id, lazy, money, timestamp, view } from '../views.js';
import { transferView } from './transfer-view.js';

/** The transfers' events (docs/architecture.md "Events"): payload and when each is committed. */
export const TRANSFER_EVENTS = {
  'deposit.initiated': { payload: transferView, occasion: 'A deposit was submitted to its rail (status PENDING).' },
  'deposit.completed': { payload: transferView, occasion: 'A deposit settled and credited its wallet (ACH: into `pendingBalance` until it clears).' },
  'deposit.failed': { payload: transferView, occasion: 'A deposit was rejected by its rail or failed to settle.' },
  'deposit.cancelled': { payload: transferView, occasion: 'A pending deposit was cancelled (`POST /v1/transfers/{id}/cancel`).' },
  'withdrawal.initiated': { payload: transferView, occasion: 'A withdrawal was submitted to its rail; amount and fee are held.' },
  'withdrawal.completed': { payload: transferView, occasion: 'A withdrawal settled; its hold was captured.' },
  'withdrawal.failed': { payload: transferView, occasion: 'A withdrawal was rejected by its rail or failed to settle; amount and fee are back.' },
  'withdrawal.cancelled': { payload: transferView, occasion: 'A pending withdrawal was cancelled; amount and fee are back.' },
  'wallet.funds_pending': {
    payload: /* @__PURE__ */ lazy(() => view(
      { walletId: id('wallet', 'The wallet the deposit credited.'), transferId: id('transfer', 'The ACH deposit.'), amount: money('Amount now in `pendingBalance`.'), availableAt: timestamp('When it becomes available.') },
      'A completed ACH deposit is clearing: its net amount is in `pendingBalance` until `availableAt`.',
      { walletId: 'wal_3kTnYpLqW8rXbZ2m', transferId: 'tr_5Kq8ZtLm2Rw9Xb1KcV4nYs7D', amount: '248.75', availableAt: '2026-03-16T10:05:11.412Z' },
    )),
    occasion: 'A completed ACH deposit started clearing: its net amount is in `pendingBalance`.',
  },
  'wallet.funds_available': {
    payload: /* @__PURE__ */ lazy(() => view(
      { walletId: id('wallet', 'The wallet the deposit credited.'), transferId: id('transfer', 'The ACH deposit.'), amount: money('Amount moved from `pendingBalance` to `balance`.') },
      'The clearing of an ACH deposit ended: its funds are available.',
      { walletId: 'wal_3kTnYpLqW8rXbZ2m', transferId: 'tr_5Kq8ZtLm2Rw9Xb1KcV4nYs7D', amount: '248.75' },
    )),
    occasion: 'The clearing of an ACH deposit ended: its amount moved to `balance`.',
  },
} as const satisfies EventDeclarations;

/** The wallet a transfer credits or debits (the one its clearing concerns). */
const transferWallet = (data: { walletId: string }) => [data.walletId];

/** The wallets each transfer event concerns. */
export const TRANSFER_EVENT_WALLETS = {
  'deposit.initiated': transferWallet,
  'deposit.completed': transferWallet,
  'deposit.failed': transferWallet,
  'deposit.cancelled': transferWallet,
  'withdrawal.initiated': transferWallet,
  'withdrawal.completed': transferWallet,
  'withdrawal.failed': transferWallet,
  'withdrawal.cancelled': transferWallet,
  'wallet.funds_pending': transferWallet,
  'wallet.funds_available': transferWallet,
} as const satisfies EventWallets<typeof TRANSFER_EVENTS>;
