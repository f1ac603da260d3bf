/** The spend policies a transfer out of a wallet meets (withdrawals and internal transfers). */
import type Big from 'big.js';
import { ApiError } from '../errors.js';
import { evaluatePolicies } from '../policies/policy-rules.js';
import { spendOf } from '../policies/spend.js';
import type { WalletSnapshot } from '../wallets/ports.js';

/** The recipient of a withdrawal to a bank given by numbers, for the policy rules that name none. */
const UNLISTED_RECIPIENT = 'bank:unlisted';

/** The wallet's spend policies apply to money leaving it: deny rules and period limits; a transfer can not wait for an approval. */
export function policyCheck(snapshot: WalletSnapshot | undefined, to: string | undefined, amount: Big, at: Date) {
  if (to === undefined) {
    // A bank given by numbers or a provider's id has no name a recipient list can hold for sure:
    // where the wallet's policies list recipients, withdrawals go to linked accounts (or USDC) only.
    const listing = snapshot!.policies.find(
      (policy) =>
        policy.status === 'ACTIVE' &&
        ((policy.allowedRecipients?.length ?? 0) > 0 || (policy.blockedRecipients?.length ?? 0) > 0),
    );
    if (listing) {
      const rule = (listing.allowedRecipients?.length ?? 0) > 0 ? 'allowedRecipients' : 'blockedRecipients';
      throw new ApiError(
        'POLICY_DENIED',
        `The policy "${listing.name}" lists recipients: withdraw to a linked bank account (bankAccountId) or a USDC address.`,
        { rule, policyId: listing.id },
      );
    }
  }
  const decision = evaluatePolicies(snapshot!.policies, snapshot!.counters, {
    walletId: snapshot!.wallet.id,
    to: to ?? UNLISTED_RECIPIENT,
    amount,
    at,
  });
  if (decision.kind === 'APPROVAL') {
    throw new ApiError(
      'POLICY_DENIED',
      'A policy of this wallet requires human approval for this amount; transfers can not wait for an approval.',
      { rule: decision.reason },
    );
  }
  return spendOf(snapshot!.wallet.id, amount, at, decision.periodLimits, snapshot!.counters, snapshot!.policyVersion);
}
