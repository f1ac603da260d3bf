import Big from 'big.js';
import { formatAmount } from '../money.js';
import { holdLegs, voidLegs } from '../ledger/movements.js';
import {
  clearingAccountOf,
  SYSTEM_ACCOUNTS,
  systemAccount,
  transferLegs,
  walletAccount,
  movementPosting,
  type Leg,
  type Posting,
  type PostingChange,
  type SpendCount,
} from '../ledger/posting.js';
import { spendReturned } from '../policies/spend.js';
import type { Transfer } from './types.js';

/**
 * The ledger movements of transfers, as postings (one transaction each, with the transfer's own
 * state change). Money from outside comes from, and money leaving goes to, the rail's clearing
 * account `acc_CLEARING_<RAIL>`; fees go to `acc_FEES`.
 *
 * - withdrawal: at initiation a hold of amount + fee (available -> held); on completion the hold
 *   is captured (amount to the clearing account, fee to fees); on failure or cancel it is voided.
 * - deposit: on completion the clearing account pays amount - fee to the wallet (ACH: into
 *   `pendingBalance` until it clears) and the fee to fees; the clearing's end moves it to available.
 * - internal: one posting from wallet to wallet, at once.
 */
type Head = Pick<Posting, 'organizationId' | 'environment'>;

function posting(
  transfer: Head & { id: string },
  transactionId: string,
  type: Posting['type'],
  legs: Leg[],
  at: string,
  attributes: Record<string, unknown>,
  extra: Partial<Posting> = {},
): PostingChange {
  return movementPosting(transfer, transactionId, type, legs, at, { transferId: transfer.id, ...attributes }, extra);
}

const totalOf = (transfer: Transfer) => new Big(transfer.amount).plus(transfer.fee);
const feeLeg = (fee: Big): Leg[] => (fee.gt(0) ? [{ account: systemAccount(SYSTEM_ACCOUNTS.fees), amount: fee }] : []);

export function withdrawalHold(transfer: Transfer, holdId: string, at: string, spend: SpendCount): PostingChange {
  const total = totalOf(transfer);
  return posting(
    transfer,
    holdId,
    'HOLD',
    holdLegs(transfer.walletId, total),
    at,
    { from: transfer.walletId, to: transfer.walletId, amount: formatAmount(total, transfer.currency), status: 'HELD' },
    { spend },
  );
}

export function withdrawalCapture(transfer: Transfer, transactionId: string, at: string): PostingChange {
  const total = totalOf(transfer);
  const fee = new Big(transfer.fee);
  const clearing = clearingAccountOf(transfer.rail);
  const legs: Leg[] = [
    { account: walletAccount(transfer.walletId), amount: total.times(-1), bucket: 'held', settlesHold: true },
    { account: systemAccount(clearing), amount: new Big(transfer.amount) },
    ...feeLeg(fee),
  ];
  return posting(
    transfer,
    transactionId,
    'CAPTURE',
    legs,
    at,
    {
      from: transfer.walletId,
      to: clearing,
      amount: formatAmount(total, transfer.currency),
      fee: formatAmount(fee),
      holdId: transfer.holdId,
    },
    {
      settles: { holdId: transfer.holdId!, trigger: 'capture', capturedAmount: total },
    },
  );
}

/**
 * The hold released (failed, rejected or cancelled): amount + fee back to available, and off the
 * wallet's period spend of when the hold was taken (`holdTakenAt`: a payment link's hold is older than its transfer).
 */
export function withdrawalVoid(
  transfer: Transfer,
  transactionId: string,
  at: string,
  holdTakenAt: string = transfer.createdAt,
): PostingChange {
  const total = totalOf(transfer);
  const spend = spendReturned(transfer.walletId, total, new Date(holdTakenAt), new Date(at));
  return posting(
    transfer,
    transactionId,
    'VOID',
    voidLegs({ walletId: transfer.walletId, amount: total }),
    at,
    {
      from: transfer.walletId,
      to: transfer.walletId,
      amount: formatAmount(total, transfer.currency),
      holdId: transfer.holdId,
    },
    {
      settles: { holdId: transfer.holdId!, trigger: 'void', capturedAmount: new Big(0) },
      ...(spend ? { spend } : {}),
    },
  );
}

/** The credit of a settled deposit, into `bucket`: `pending` (`pendingBalance`) when it must clear first. */
export function depositCredit(
  transfer: Transfer,
  transactionId: string,
  at: string,
  bucket: 'pending' | 'available',
): PostingChange {
  const amount = new Big(transfer.amount);
  const fee = new Big(transfer.fee);
  const clearing = clearingAccountOf(transfer.rail);
  const legs: Leg[] = [
    { account: systemAccount(clearing), amount: amount.times(-1) },
    // Accepted while the wallet was ACTIVE: the money arrives even if it was paused since (not if it was closed).
    { account: walletAccount(transfer.walletId), amount: amount.minus(fee), bucket, settlesHold: true },
    ...feeLeg(fee),
  ];
  return posting(transfer, transactionId, 'DEPOSIT', legs, at, {
    from: clearing,
    to: transfer.walletId,
    amount: formatAmount(amount, transfer.currency),
    fee: formatAmount(fee),
  });
}

/** The end of a deposit's clearing: pending -> available (also on a frozen wallet: the money arrived while it was active). */
export function clearingRelease(transfer: Transfer, transactionId: string, at: string, net: Big): PostingChange {
  const wallet = walletAccount(transfer.walletId);
  const legs: Leg[] = [
    { account: wallet, amount: net.times(-1), bucket: 'pending', settlesHold: true },
    { account: wallet, amount: net, bucket: 'available', settlesHold: true },
  ];
  return posting(transfer, transactionId, 'CLEARING_RELEASE', legs, at, {
    from: transfer.walletId,
    to: transfer.walletId,
    amount: formatAmount(net, transfer.currency),
  });
}

export function internalPosting(
  transfer: Transfer,
  transactionId: string,
  at: string,
  spend: SpendCount,
): PostingChange {
  const amount = new Big(transfer.amount);
  return posting(
    transfer,
    transactionId,
    'INTERNAL_TRANSFER',
    transferLegs(walletAccount(transfer.walletId), walletAccount(transfer.toWalletId!), amount),
    at,
    {
      from: transfer.walletId,
      to: transfer.toWalletId,
      amount: formatAmount(amount),
      ...(transfer.description ? { description: transfer.description } : {}),
    },
    {
      spend,
      ...(transfer.description ? { description: transfer.description } : {}),
    },
  );
}
