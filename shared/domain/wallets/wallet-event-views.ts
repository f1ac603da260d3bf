import { enumOf, id, lazy, money, text, usd, view } from '../views.js';

/**
 * The payloads of the wallets' own events, by name in `wallet-events.ts`. Their own module: the
 * events file reads their types, and the area's view module (which re-exports them, so the view
 * registry names them) depends on the area's service, which depends on the event payload types.
 */

/** The payload of `wallet.created` (`wallet-events.ts`). */
export const walletCreatedEventView = /* @__PURE__ */ lazy(() =>
  view(
    {
      id: id('wallet', 'The new wallet.'),
      name: text('Its name.'),
      walletType: enumOf(['ORG', 'AGENT'], 'ORG for organization wallets, AGENT for agent wallets.'),
    },
    'A wallet was created.',
    { id: 'wal_3kTnYpLqW8rXbZ2m', name: 'Operations', walletType: 'ORG' },
  ),
);

/** The payload of `wallet.funded` (`wallet-events.ts`). */
export const walletFundedEventView = /* @__PURE__ */ lazy(() =>
  view(
    {
      walletId: id('wallet', 'The funded wallet.'),
      transactionId: id('transaction', 'The funding transaction.'),
      amount: money('Amount added.'),
      currency: usd(),
    },
    'Test money was added to a sandbox wallet.',
    { walletId: 'wal_3kTnYpLqW8rXbZ2m', transactionId: 'txn_9fQw2LmZr4Tb8Ks1', amount: '100.00', currency: 'USD' },
  ),
);
