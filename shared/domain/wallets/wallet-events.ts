import type { EventDeclarations, EventWallets } from '../events/event-declaration.js';
import { enumOf, id, lazy, money, text, usd, view } from '../views.js';

/** The wallets' events (docs/architecture.md "Events"): payload and when each is committed. */
export const WALLET_EVENTS = {
  'wallet.created': {
    payload: /* @__PURE__ */ lazy(() => view(
      { id: id('wallet', 'The new wallet.'), name: text('Its name.'), walletType: enumOf(['ORG', 'AGENT'], 'ORG for organization wallets, AGENT for agent wallets.') },
      'A wallet was created.',
      { id: 'wal_3kTnYpLqW8rXbZ2m', name: 'Operations', walletType: 'ORG' },
    )),
    occasion: 'A wallet was created (`POST /v1/wallets`).',
  },
  'wallet.funded': {
    payload: /* @__PURE__ */ lazy(() => view(
      { walletId: id('wallet', 'The funded wallet.'), transactionId: id('transaction', 'The funding transaction.'), amount: money('Amount added.'), currency: usd() },
      'Test money was added to a sandbox wallet.',
      { walletId: 'wal_3kTnYpLqW8rXbZ2m', transactionId: 'txn_9fQw2LmZr4Tb8Ks1', amount: '100.00', currency: 'USD' },
    )),
    occasion: 'Test money was added to a sandbox wallet (`POST /v1/wallets/{id}/fund`).',
  },
} as const satisfies EventDeclarations;

/** The wallets each wallet event concerns: the wallet created, or funded. */
export const WALLET_EVENT_WALLETS = {
  'wallet.created': (wallet) => [wallet.id],
  'wallet.funded': (funding) => [funding.walletId],
} as const satisfies EventWallets<typeof WALLET_EVENTS>;
