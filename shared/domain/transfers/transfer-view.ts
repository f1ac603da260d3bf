import Big from 'big.js';
import * as z from 'zod/mini';
import { formatAmount } from '../money.js';
import {
  describe,
  enumOf,
  id,
  lazy,
  money,
  nullableId,
  nullableText,
  nullableTimestamp,
  objectTag,
  pageOf,
  timestamp,
  view,
} from '../views.js';
import {
  TRANSFER_CURRENCIES,
  TRANSFER_DIRECTIONS,
  TRANSFER_STATUSES,
  RAILS,
  EXTERNAL_RAILS,
  type ClearingStatus,
  type Counterparty,
  type Transfer,
} from './types.js';
import { everyOf } from '../enums.js';

const AMOUNT_TEXT = 'A decimal string with 2 decimal places (USDC: up to 6), e.g. "250.00".';
const transferAmount = (description: string) =>
  describe(z.string().check(z.regex(/^\d+\.\d{2,6}$/)), `${description} ${AMOUNT_TEXT}`);

export const counterpartyView = /* @__PURE__ */ lazy(() =>
  view(
    {
      type: enumOf(EXTERNAL_RAILS, 'The rail: ACH, WIRE or FEDNOW (a bank account), or USDC (an address on a chain).'),
      bankAccountId: nullableText(
        'The linked bank account (`ba_...`) or the counterparty id at the banking provider, if one was given.',
      ),
      routingNumber: nullableText('The bank routing number (ABA), for bank rails given by numbers.'),
      last4: nullableText('Last 4 digits of the bank account number; the full number is never shown.'),
      address: nullableText('The USDC address, for USDC.'),
      chain: nullableText('The chain of the USDC address (default Ethereum), for USDC.'),
    },
    'The outside end of a deposit (where the money comes from) or a withdrawal (where it goes).',
    {
      type: 'ACH',
      bankAccountId: 'ba_7Qm2ZtLp9Rw4Xb1KcV8nYs3D',
      routingNumber: '021000021',
      last4: '6789',
      address: null,
      chain: null,
    },
  ),
);

export const clearingView = /* @__PURE__ */ lazy(() =>
  view(
    {
      status: enumOf(
        everyOf<ClearingStatus>()(['PENDING', 'AVAILABLE']),
        'PENDING while the deposited funds clear (in `pendingBalance`), AVAILABLE once released to `balance`.',
      ),
      availableAt: timestamp('When the funds become (or became) available.'),
    },
    'The clearing of a completed ACH deposit.',
    { status: 'PENDING', availableAt: '2026-03-16T10:02:11.412Z' },
  ),
);

export const transferView = /* @__PURE__ */ lazy(() =>
  view(
    {
      id: id('transfer', 'Transfer id.'),
      object: objectTag('transfer'),
      walletId: id(
        'wallet',
        'The wallet credited by a deposit, debited by a withdrawal, or paying in an internal transfer.',
      ),
      direction: enumOf(
        TRANSFER_DIRECTIONS,
        'DEPOSIT (money in), WITHDRAWAL (money out) or INTERNAL (between two wallets of the organization).',
      ),
      rail: enumOf(RAILS, 'How the money moves: ACH, WIRE, FEDNOW, USDC, or INTERNAL.'),
      amount: transferAmount('Amount of the transfer.'),
      fee: transferAmount('Fee: 0.5 %, at least 0.25, for deposits and withdrawals; 0.00 for internal transfers.'),
      netAmount: transferAmount(
        'What the wallet receives (a deposit: amount - fee) or pays (a withdrawal: amount + fee; internal: amount).',
      ),
      currency: enumOf(TRANSFER_CURRENCIES, 'USD or USDC (USDC deposits credit the USD wallet 1:1).'),
      status: enumOf(
        TRANSFER_STATUSES,
        'INITIATED (accepted), PENDING (submitted to the rail), COMPLETED (settled), FAILED (see `failureReason`; funds returned) or CANCELLED (cancelled while pending; funds and fee returned).',
      ),
      source: z.nullable(counterpartyView).check(z.describe('Where a deposit comes from; null otherwise.')),
      destination: z.nullable(counterpartyView).check(z.describe('Where a withdrawal goes; null otherwise.')),
      toWalletId: nullableId('wallet', 'The receiving wallet of an internal transfer; null otherwise.'),
      paymentLinkId: nullableId(
        'paymentLink',
        "A withdrawal that carries a payment link's claim to a bank account or USDC address: the link (its hold is what this withdrawal captures); null otherwise.",
      ),
      description: nullableText('Description given with an internal transfer, or null.'),
      failureReason: nullableText(
        'Why the transfer failed (e.g. R03_NO_ACCOUNT, ADDRESS_REJECTED, SUBMISSION_REJECTED, WALLET_FROZEN), or null.',
      ),
      clearing: z
        .nullable(clearingView)
        .check(z.describe('For a completed ACH deposit, its clearing; null otherwise.')),
      idempotencyKey: nullableText('Idempotency key the transfer was made with, or null.'),
      createdAt: timestamp('When the transfer was requested.'),
      completedAt: nullableTimestamp('When it settled, or null.'),
      failedAt: nullableTimestamp('When it failed, or null.'),
      cancelledAt: nullableTimestamp('When it was cancelled, or null.'),
    },
    'A transfer: money in from a bank or a USDC address, out to one, or between two wallets of the organization.',
    {
      id: 'tr_5Kq8ZtLm2Rw9Xb1KcV4nYs7D',
      object: 'transfer',
      walletId: 'wal_xZTRJjUn1z5KLKFL2fXHmE5h',
      direction: 'DEPOSIT',
      rail: 'ACH',
      amount: '250.00',
      fee: '1.25',
      netAmount: '248.75',
      currency: 'USD',
      status: 'COMPLETED',
      source: {
        type: 'ACH',
        bankAccountId: 'ba_7Qm2ZtLp9Rw4Xb1KcV8nYs3D',
        routingNumber: '021000021',
        last4: '6789',
        address: null,
        chain: null,
      },
      destination: null,
      toWalletId: null,
      paymentLinkId: null,
      description: null,
      failureReason: null,
      clearing: { status: 'PENDING', availableAt: '2026-03-16T10:02:11.412Z' },
      idempotencyKey: 'deposit-2026-03-14',
      createdAt: '2026-03-14T10:02:11.412Z',
      completedAt: '2026-03-14T10:05:11.412Z',
      failedAt: null,
      cancelledAt: null,
    },
  ),
);
export type TransferView = z.infer<typeof transferView>;
export type CounterpartyView = z.infer<typeof counterpartyView>;

export const transferPageView = /* @__PURE__ */ lazy(() => pageOf(transferView, 'A page of transfers, newest first.'));

function presentCounterparty(counterparty: Counterparty | undefined): CounterpartyView | null {
  if (!counterparty) return null;
  if (counterparty.type === 'USDC')
    return {
      type: 'USDC',
      bankAccountId: null,
      routingNumber: null,
      last4: null,
      address: counterparty.address,
      chain: counterparty.chain,
    };
  return {
    type: counterparty.type,
    bankAccountId: counterparty.bankAccountId ?? counterparty.counterpartyId ?? null,
    routingNumber: counterparty.routingNumber ?? null,
    last4: counterparty.last4 ?? null,
    address: null,
    chain: null,
  };
}

/** What the wallet receives or pays. */
export function netAmountOf(transfer: Pick<Transfer, 'direction' | 'amount' | 'fee'>): Big {
  const amount = new Big(transfer.amount);
  const fee = new Big(transfer.fee);
  return transfer.direction === 'DEPOSIT'
    ? amount.minus(fee)
    : transfer.direction === 'WITHDRAWAL'
      ? amount.plus(fee)
      : amount;
}

/**
 * A transfer as one caller sees it: the receiving wallet's own (agent) key does not see the
 * paying side's idempotency key.
 */
export interface ViewedTransfer {
  transfer: Transfer;
  viewerWalletId: string | null;
}

export function presentViewedTransfer({ transfer, viewerWalletId }: ViewedTransfer): TransferView {
  const view = presentTransfer(transfer);
  return viewerWalletId !== null && viewerWalletId !== transfer.walletId ? { ...view, idempotencyKey: null } : view;
}

/** The wire shape of a transfer (never an account number, a sealed value or a hold id). */
export function presentTransfer(transfer: Transfer): TransferView {
  return {
    id: transfer.id,
    object: 'transfer',
    walletId: transfer.walletId,
    direction: transfer.direction,
    rail: transfer.rail,
    amount: formatAmount(new Big(transfer.amount), transfer.currency),
    fee: formatAmount(new Big(transfer.fee)),
    netAmount: formatAmount(netAmountOf(transfer), transfer.currency),
    currency: transfer.currency,
    status: transfer.status,
    source: presentCounterparty(transfer.source),
    destination: presentCounterparty(transfer.destination),
    toWalletId: transfer.toWalletId ?? null,
    paymentLinkId: transfer.paymentLinkId ?? null,
    description: transfer.description ?? null,
    failureReason: transfer.failureReason ?? null,
    clearing:
      transfer.clearing && transfer.availableAt
        ? { status: transfer.clearing, availableAt: transfer.availableAt }
        : null,
    idempotencyKey: transfer.idempotencyKey ?? null,
    createdAt: transfer.createdAt,
    completedAt: transfer.completedAt ?? null,
    failedAt: transfer.failedAt ?? null,
    cancelledAt: transfer.cancelledAt ?? null,
  };
}

/** The payload of `wallet.funds_pending` (shared/domain/transfers/transfer-events.ts). */
export const walletFundsPendingEventView = /* @__PURE__ */ lazy(() =>
  view(
    {
      walletId: id('wallet', 'The wallet the deposit credited.'),
      transferId: id('transfer', 'The ACH deposit.'),
      amount: money('Amount now in `pendingBalance`.'),
      availableAt: timestamp('When it becomes available.'),
    },
    'A completed ACH deposit is clearing: its net amount is in `pendingBalance` until `availableAt`.',
    {
      walletId: 'wal_3kTnYpLqW8rXbZ2m',
      transferId: 'tr_5Kq8ZtLm2Rw9Xb1KcV4nYs7D',
      amount: '248.75',
      availableAt: '2026-03-16T10:05:11.412Z',
    },
  ),
);

/** The payload of `wallet.funds_available` (shared/domain/transfers/transfer-events.ts). */
export const walletFundsAvailableEventView = /* @__PURE__ */ lazy(() =>
  view(
    {
      walletId: id('wallet', 'The wallet the deposit credited.'),
      transferId: id('transfer', 'The ACH deposit.'),
      amount: money('Amount moved from `pendingBalance` to `balance`.'),
    },
    'The clearing of an ACH deposit ended: its funds are available.',
    { walletId: 'wal_3kTnYpLqW8rXbZ2m', transferId: 'tr_5Kq8ZtLm2Rw9Xb1KcV4nYs7D', amount: '248.75' },
  ),
);
