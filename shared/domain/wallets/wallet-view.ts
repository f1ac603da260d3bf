import * as z from 'zod/mini';
import { formatBalance } from '../money.js';
import type { StatementEntry, Wallet, WalletStatus, WalletType } from '../types.js';
import {
  balance,
  type Conforms,
  currency,
  enumOf,
  environment,
  flag,
  id,
  lazy,
  money,
  nullableText,
  objectTag,
  pageOf,
  text,
  timestamp,
  usd,
  view,
} from '../views.js';
import type { WalletService } from './wallet-service.js';
import { everyOf } from '../enums.js';

/** The payload views of this area's own events (a module of their own: shared/domain/wallets/wallet-events.ts reads their types without reaching the service this module presents). */
export * from './wallet-event-views.js';

export const WALLET_STATUSES = everyOf<WalletStatus>()(['ACTIVE', 'FROZEN']);
export const WALLET_TYPES = everyOf<WalletType>()(['ORG', 'AGENT']);

export const walletStatus = (description: string) => enumOf(WALLET_STATUSES, description);

export const walletView = /* @__PURE__ */ lazy(() =>
  view(
    {
      id: id('wallet', 'Wallet id.'),
      object: objectTag('wallet'),
      name: text('Display name of the wallet.'),
      agentName: nullableText('Name of the agent the wallet belongs to, or null when none was given.'),
      environment: environment(),
      walletType: enumOf(
        WALLET_TYPES,
        'ORG for an organization wallet (including the main wallet), AGENT for the wallet of an agent created with /v1/agents.',
      ),
      isMain: flag(
        'Whether this is the main wallet of the environment (exactly one per environment; agent budgets come from it and return to it).',
      ),
      status: walletStatus(
        'ACTIVE, or FROZEN: a frozen wallet can neither pay nor be paid (WALLET_FROZEN) but can still be read.',
      ),
      balance: balance('Available balance: what the wallet can spend now.'),
      pendingBalance: balance('Incoming money not yet available.'),
      heldBalance: balance('Money reserved and not available for spending.'),
      currency: currency(),
      createdAt: timestamp('When the wallet was created.'),
    },
    'A wallet: a balance that payments move money from and to, in one environment of an organization.',
    {
      id: 'wal_sbdFwe1fHYc4MU7IrQ3n5lUz',
      object: 'wallet',
      name: 'Marketing budget',
      agentName: null,
      environment: 'SANDBOX',
      walletType: 'ORG',
      isMain: false,
      status: 'ACTIVE',
      balance: '125.50000000',
      pendingBalance: '0.00000000',
      heldBalance: '0.00000000',
      currency: 'USD',
      createdAt: '2026-03-14T09:30:00.000Z',
    },
  ),
);
export type WalletView = z.infer<typeof walletView>;

export function presentWallet(wallet: Wallet): WalletView {
  return {
    id: wallet.id,
    object: 'wallet',
    name: wallet.name,
    agentName: wallet.agentName ?? null,
    environment: wallet.environment,
    walletType: wallet.walletType,
    isMain: wallet.isMain,
    status: wallet.status,
    balance: formatBalance(wallet.balance),
    pendingBalance: formatBalance(wallet.pendingBalance),
    heldBalance: formatBalance(wallet.heldBalance),
    currency: wallet.currency,
    createdAt: wallet.createdAt,
  };
}

export const walletPageView = /* @__PURE__ */ lazy(() =>
  pageOf(walletView, 'A page of the wallets the key can see (an agent key sees only its own wallet).'),
);

export const balanceView = /* @__PURE__ */ lazy(() =>
  view(
    {
      walletId: id('wallet', 'Wallet id.'),
      balance: balance('Available balance: what the wallet can spend now.'),
      pendingBalance: balance('Incoming money not yet available.'),
      heldBalance: balance('Money reserved and not available for spending.'),
      currency: currency(),
    },
    'The balances of one wallet.',
    {
      walletId: 'wal_sbdFwe1fHYc4MU7IrQ3n5lUz',
      balance: '125.50000000',
      pendingBalance: '0.00000000',
      heldBalance: '0.00000000',
      currency: 'USD',
    },
  ),
);
export type BalanceView = z.infer<typeof balanceView>;

export function presentBalance(wallet: Wallet): BalanceView {
  return {
    walletId: wallet.id,
    balance: formatBalance(wallet.balance),
    pendingBalance: formatBalance(wallet.pendingBalance),
    heldBalance: formatBalance(wallet.heldBalance),
    currency: wallet.currency,
  };
}

export const statementEntryView = /* @__PURE__ */ lazy(() =>
  view(
    {
      transactionId: id(
        'transaction',
        'The transaction that moved the money (a payment, funding, reversal, budget adjustment or sweep).',
      ),
      type: text('Transaction type: PAYMENT, FUNDING, REVERSAL, BUDGET_ADJUSTMENT or SWEEP.'),
      amount: balance('Signed change of the balance: positive for money in, negative for money out.'),
      balanceAfter: balance('Available balance of the wallet right after this entry.'),
      description: nullableText('Description of the transaction, or null when it has none.'),
      createdAt: timestamp('When the entry was posted.'),
    },
    'One line of a wallet statement: a ledger entry of the wallet with the balance after it.',
    {
      transactionId: 'txn_3v69JCj7iUJJIENQ5uIkffiK',
      type: 'PAYMENT',
      amount: '-40.00000000',
      balanceAfter: '85.50000000',
      description: 'API credits for March',
      createdAt: '2026-03-14T10:02:11.412Z',
    },
  ),
);
export type StatementEntryView = z.infer<typeof statementEntryView>;

export function presentStatementEntry(entry: StatementEntry): StatementEntryView {
  return {
    transactionId: entry.transactionId,
    type: entry.type,
    amount: formatBalance(entry.amount),
    balanceAfter: formatBalance(entry.balanceAfter),
    description: entry.description ?? null,
    createdAt: entry.createdAt,
  };
}

export const statementPageView = /* @__PURE__ */ lazy(() =>
  pageOf(
    statementEntryView,
    'A page of a wallet statement, newest entry first; `balanceAfter` stays right across pages.',
  ),
);

export const walletFundingView = /* @__PURE__ */ lazy(() =>
  view(
    {
      walletId: id('wallet', 'The funded wallet.'),
      transactionId: id('transaction', 'The FUNDING transaction (from the system account `acc_SANDBOX_FUNDING`).'),
      amount: money('Amount added.'),
      newBalance: balance(
        'Available balance right after the funding (it may include movements that landed at the same moment).',
      ),
      currency: usd(),
    },
    'The answer of a sandbox funding: test money added to a wallet.',
    {
      walletId: 'wal_sbdFwe1fHYc4MU7IrQ3n5lUz',
      transactionId: 'txn_2wHYq8yGFiJin01BVhz8nQja',
      amount: '100.00',
      newBalance: '225.50000000',
      currency: 'USD',
    },
  ),
);
export type WalletFundingView = z.infer<typeof walletFundingView>;

/** Type-only: what the wallet service answers as is must fit its view (a drift fails to compile). */
export type WalletAnswersConform = [Conforms<Awaited<ReturnType<WalletService['fund']>>, WalletFundingView>];
