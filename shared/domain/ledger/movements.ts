import type Big from 'big.js';
import { ApiError } from '../errors.js';
import { formatAmount } from '../money.js';
import { walletAccount, type LedgerAccount, type Leg } from './posting.js';

/**
 * The legs of the two-phase movements (TigerBeetle's pending transfers) and of a reversal. Each
 * set is balanced: a hold moves money within one wallet (available -> held), a capture takes the
 * whole hold out of held and pays `captured` of it on, releasing the rest, a void releases it all.
 */

/** available -> held: the wallet must have the amount available (checked at commit). */
export function holdLegs(walletId: string, amount: Big): Leg[] {
  return [
    { account: walletAccount(walletId), amount: amount.times(-1), bucket: 'available' },
    { account: walletAccount(walletId), amount, bucket: 'held' },
  ];
}

/** held -> `to` for `captured` (0 < captured <= held amount), the rest back to available. */
export function captureLegs(hold: { walletId: string; amount: Big }, captured: Big, to: LedgerAccount): Leg[] {
  if (captured.lte(0) || captured.gt(hold.amount)) {
    throw new ApiError(
      'INVALID_AMOUNT',
      `amount: a capture takes more than 0 and at most ${formatAmount(hold.amount)}`,
      { field: 'amount', max: formatAmount(hold.amount) },
    );
  }
  const rest = hold.amount.minus(captured);
  return [
    { account: walletAccount(hold.walletId), amount: hold.amount.times(-1), bucket: 'held', settlesHold: true },
    ...(rest.gt(0)
      ? [
          {
            account: walletAccount(hold.walletId),
            amount: rest,
            bucket: 'available' as const,
            settlesHold: true as const,
          },
        ]
      : []),
    { account: to, amount: captured },
  ];
}

/** held -> available, all of it. */
export function voidLegs(hold: { walletId: string; amount: Big }): Leg[] {
  return [
    { account: walletAccount(hold.walletId), amount: hold.amount.times(-1), bucket: 'held', settlesHold: true },
    { account: walletAccount(hold.walletId), amount: hold.amount, bucket: 'available', settlesHold: true },
  ];
}

/** The mirror of posted legs: every leg negated (the receiving side pays back, under the same conditions). */
export function reversalLegs(legs: Leg[]): Leg[] {
  return legs.map((leg) => ({
    account: leg.account,
    amount: leg.amount.times(-1),
    ...(leg.bucket ? { bucket: leg.bucket } : {}),
  }));
}
