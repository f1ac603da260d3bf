import Big from 'big.js';
import {
  movementPosting,
  SYSTEM_ACCOUNTS,
  systemAccount,
  walletAccount,
  type Leg,
  type PostingChange,
} from '../ledger/posting.js';
import type { Dispute } from './types.js';

/**
 * A dispute's wallet leg: `settlesHold` lets it run on a FROZEN wallet (a paused agent), never on a
 * closed one. A dispute is not the agent spending: the opening claws back money the wallet received
 * (the payment already moved it), and the resolution pays out money owed to the wallet; neither may
 * wait for someone to resume the agent. No spend counter changes on either side.
 */
const walletLeg = (walletId: string, amount: Big): Leg => ({
  account: walletAccount(walletId),
  amount,
  settlesHold: true,
});

/**
 * The opening (`DISPUTE`, id `holdTransactionId`): the receiving wallet -amount, acc_SUSPENSE
 * +amount. Its journal record belongs to the respondent's organization (their money moved) and is
 * on the receiving wallet's statement. No audit descriptor: nothing is projected from it (no
 * `payment.*` event; the service writes the dispute's own audit entries and events).
 */
export function disputeHold(dispute: Dispute, at: string): PostingChange {
  const amount = new Big(dispute.amount);
  return movementPosting(
    { organizationId: dispute.respondentOrgId, environment: dispute.environment },
    dispute.holdTransactionId,
    'DISPUTE',
    [
      walletLeg(dispute.receivingWalletId, amount.times(-1)),
      { account: systemAccount(SYSTEM_ACCOUNTS.suspense), amount },
    ],
    at,
    { from: dispute.receivingWalletId, to: SYSTEM_ACCOUNTS.suspense, amount: dispute.amount, disputeId: dispute.id },
  );
}

/**
 * The end (`DISPUTE_RESOLUTION`): acc_SUSPENSE -amount, the credited wallet +amount. Its journal
 * record belongs to the organization credited and is on that wallet's statement.
 */
export function disputeRelease(
  dispute: Dispute,
  credited: { walletId: string; organizationId: string },
  transactionId: string,
  at: string,
): PostingChange {
  const amount = new Big(dispute.amount);
  return movementPosting(
    { organizationId: credited.organizationId, environment: dispute.environment },
    transactionId,
    'DISPUTE_RESOLUTION',
    [
      { account: systemAccount(SYSTEM_ACCOUNTS.suspense), amount: amount.times(-1) },
      walletLeg(credited.walletId, amount),
    ],
    at,
    { from: SYSTEM_ACCOUNTS.suspense, to: credited.walletId, amount: dispute.amount, disputeId: dispute.id },
  );
}
