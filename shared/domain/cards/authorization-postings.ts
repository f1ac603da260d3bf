import Big from 'big.js';
import { captureLegs, holdLegs, voidLegs } from '../ledger/movements.js';
import {
  SYSTEM_ACCOUNTS,
  systemAccount,
  walletAccount,
  movementPosting,
  type Leg,
  type Posting,
  type PostingChange,
  type SpendCount,
} from '../ledger/posting.js';
import { formatAmount } from '../money.js';
import { spendReturned } from '../policies/spend.js';
import type { Authorization } from './types.js';

/**
 * The ledger movements of card authorizations (shared/ARCHITECTURE.md: authorizations are holds):
 *
 * - approval: a hold of the amount on the card's wallet (available -> held), counting the wallet's
 *   period spend under its policy limits;
 * - capture: the hold captured, `captured` of it paid to `acc_CARD_SETTLEMENT` (what the issuer
 *   owes the network), the rest released to available and given back to the wallet's period spend;
 * - reversal: the hold voided, all of it back to available and off the wallet's period spend;
 * - refund: `acc_CARD_SETTLEMENT` pays the amount back into the wallet's available balance (also on
 *   a frozen wallet: the money left it while it was active).
 */
type Head = Pick<Authorization, 'id' | 'organizationId' | 'environment' | 'walletId' | 'cardId'>;

function posting(
  auth: Head,
  transactionId: string,
  type: Posting['type'],
  legs: Leg[],
  at: string,
  attributes: Record<string, unknown>,
  extra: Partial<Posting> = {},
): PostingChange {
  return movementPosting(
    auth,
    transactionId,
    type,
    legs,
    at,
    { authorizationId: auth.id, cardId: auth.cardId, ...attributes },
    extra,
  );
}

export const CARD_SETTLEMENT = SYSTEM_ACCOUNTS.cardSettlement;

export function authorizationHold(
  auth: Head,
  holdId: string,
  amount: Big,
  at: string,
  spend: SpendCount,
): PostingChange {
  return posting(
    auth,
    holdId,
    'HOLD',
    holdLegs(auth.walletId, amount),
    at,
    { from: auth.walletId, to: auth.walletId, amount: formatAmount(amount), status: 'HELD' },
    { spend },
  );
}

type Held = Head & Pick<Authorization, 'amount' | 'createdAt'> & { holdId: string };

/** The wallet's period spend the released part of a hold gives back (counted when the authorization was approved). */
const released = (auth: Held, amount: Big, at: string) =>
  amount.gt(0) ? spendReturned(auth.walletId, amount, new Date(auth.createdAt), new Date(at)) : undefined;

export function authorizationCapture(auth: Held, transactionId: string, captured: Big, at: string): PostingChange {
  const held = new Big(auth.amount);
  const spend = released(auth, held.minus(captured), at);
  return posting(
    auth,
    transactionId,
    'CAPTURE',
    captureLegs({ walletId: auth.walletId, amount: held }, captured, systemAccount(CARD_SETTLEMENT)),
    at,
    { from: auth.walletId, to: CARD_SETTLEMENT, amount: formatAmount(captured), holdId: auth.holdId },
    {
      settles: { holdId: auth.holdId, trigger: 'capture', capturedAmount: captured },
      ...(spend ? { spend } : {}),
    },
  );
}

export function authorizationVoid(auth: Held, transactionId: string, at: string): PostingChange {
  const held = new Big(auth.amount);
  const spend = released(auth, held, at);
  return posting(
    auth,
    transactionId,
    'VOID',
    voidLegs({ walletId: auth.walletId, amount: held }),
    at,
    { from: auth.walletId, to: auth.walletId, amount: formatAmount(held), holdId: auth.holdId },
    {
      settles: { holdId: auth.holdId, trigger: 'void', capturedAmount: new Big(0) },
      ...(spend ? { spend } : {}),
    },
  );
}

export function cardRefund(auth: Head, transactionId: string, amount: Big, at: string): PostingChange {
  const legs: Leg[] = [
    { account: systemAccount(CARD_SETTLEMENT), amount: amount.times(-1) },
    { account: walletAccount(auth.walletId), amount, settlesHold: true },
  ];
  return posting(auth, transactionId, 'CARD_REFUND', legs, at, {
    from: CARD_SETTLEMENT,
    to: auth.walletId,
    amount: formatAmount(amount),
  });
}
