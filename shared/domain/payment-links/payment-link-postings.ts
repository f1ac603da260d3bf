import Big from 'big.js';
import { captureLegs, holdLegs, voidLegs } from '../ledger/movements.js';
import { walletAccount, movementPosting, type PostingChange, type SpendCount } from '../ledger/posting.js';
import { formatAmount } from '../money.js';
import { spendReturned } from '../policies/spend.js';
import { heldOf } from './payment-link-rules.js';
import type { PaymentLink } from './types.js';

/*
 * The ledger movements of a payment link (one transaction each, with the link's own state change):
 * at creation a hold of amount + fee (available -> held); a wallet claim captures it (amount to the
 * claimant wallet, the fee back to the link wallet's available); cancel, expiry or a refused approval
 * void it (all back to available, and off the wallet's period spend). An ach/usdc claim's transfer
 * adopts the hold and captures it as a withdrawal (transfer-postings.ts), each built by movementPosting.
 */

/** The hold taken at creation (its id is `link.holdId`), counted in the wallet's period spend. */
export function linkHold(link: PaymentLink, at: string, spend: SpendCount): PostingChange {
  const total = heldOf(link);
  return movementPosting(
    link,
    link.holdId,
    'HOLD',
    holdLegs(link.walletId, total),
    at,
    { from: link.walletId, to: link.walletId, amount: formatAmount(total), status: 'HELD', paymentLinkId: link.id },
    { spend },
  );
}

/**
 * A wallet claim: the hold captured, `amount` to the claimant wallet and the fee back to the link
 * wallet (with its spend). The claimant's statement shows the amount and the link's description, as
 * for a payment; nothing is projected (no audit descriptor): no event reaches the claimant's organization.
 * Unlike a capture of a card's or a transfer's hold, a claim is a new decision to pay: the link
 * wallet's legs do not settle a hold already decided (no `settlesHold`), so the write needs that
 * wallet ACTIVE (WALLET_FROZEN otherwise) and a paused agent's link pays nothing.
 */
export function linkWalletCapture(
  link: PaymentLink,
  claimantWalletId: string,
  transactionId: string,
  at: string,
): PostingChange {
  const amount = new Big(link.amount);
  const fee = new Big(link.fee);
  const returned = fee.gt(0) ? spendReturned(link.walletId, fee, new Date(link.createdAt), new Date(at)) : undefined;
  return movementPosting(
    link,
    transactionId,
    'CAPTURE',
    captureLegs({ walletId: link.walletId, amount: heldOf(link) }, amount, walletAccount(claimantWalletId)).map(
      ({ settlesHold: _settles, ...leg }) => leg,
    ),
    at,
    { from: link.walletId, to: claimantWalletId, amount: formatAmount(amount), holdId: link.holdId },
    {
      settles: { holdId: link.holdId, trigger: 'capture', capturedAmount: amount },
      ...(link.description !== undefined ? { description: link.description } : {}),
      ...(returned ? { spend: returned } : {}),
    },
  );
}

/** The hold released (cancel, expiry, a refused approval, a rail claim failing after expiry): amount + fee back to available. */
export function linkHoldVoid(link: PaymentLink, transactionId: string, at: string): PostingChange {
  const total = heldOf(link);
  const spend = spendReturned(link.walletId, total, new Date(link.createdAt), new Date(at));
  return movementPosting(
    link,
    transactionId,
    'VOID',
    voidLegs({ walletId: link.walletId, amount: total }),
    at,
    { from: link.walletId, to: link.walletId, amount: formatAmount(total), holdId: link.holdId },
    {
      settles: { holdId: link.holdId, trigger: 'void', capturedAmount: new Big(0) },
      ...(spend ? { spend } : {}),
    },
  );
}
