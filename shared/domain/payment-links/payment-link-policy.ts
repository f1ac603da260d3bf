import type Big from 'big.js';
import { ApiError } from '../errors.js';
import type { SpendCount } from '../ledger/posting.js';
import { evaluatePolicies, type PolicyDecision } from '../policies/policy-rules.js';
import { spendOf } from '../policies/spend.js';
import type { WalletSnapshot } from '../wallets/ports.js';
import type { RecipientRestrictions } from './types.js';

/** The recipient of a link that names no wallet, for the policy rules that list none. */
const UNNAMED_RECIPIENT = 'payment_link:unrestricted';

export interface LinkPolicyOutcome {
  /** A policy asks a person to approve the link (its reason), or undefined. */
  approvalReason?: string | undefined;
  spend: SpendCount;
}

/**
 * The spend policies a link meets at creation (it is money leaving the wallet; docs/api.md "Payment
 * links"): deny rules and period limits on `total` (amount + fee, as a withdrawal); the recipient
 * rules against each wallet the link is restricted to (all must pass); a link that names no wallet
 * (unrestricted, or restricted by email only) or that names any email (an email lets a claim through
 * to any destination) is refused where an active policy lists recipients.
 * Approval when any evaluation asks for it. The frozen check comes before, the funds check at commit.
 */
export function linkPolicyOutcome(
  snapshot: WalletSnapshot,
  restrictions: RecipientRestrictions | undefined,
  total: Big,
  at: Date,
): LinkPolicyOutcome {
  const walletIds = restrictions?.walletIds ?? [];
  const emails = restrictions?.emails ?? [];
  if (walletIds.length === 0 || emails.length > 0) {
    const listing = snapshot.policies.find(
      (policy) =>
        policy.status === 'ACTIVE' &&
        ((policy.allowedRecipients?.length ?? 0) > 0 || (policy.blockedRecipients?.length ?? 0) > 0),
    );
    if (listing) {
      const rule = (listing.allowedRecipients?.length ?? 0) > 0 ? 'allowedRecipients' : 'blockedRecipients';
      throw new ApiError(
        'POLICY_DENIED',
        `The policy "${listing.name}" lists recipients: restrict the link to wallets the policy allows (recipientRestrictions.walletIds, without emails).`,
        { rule, policyId: listing.id },
      );
    }
  }
  const evaluate = (to: string): PolicyDecision =>
    evaluatePolicies(snapshot.policies, snapshot.counters, { walletId: snapshot.wallet.id, to, amount: total, at });
  const decisions = (walletIds.length === 0 ? [UNNAMED_RECIPIENT] : walletIds).map(evaluate);
  const approval = decisions.find((decision) => decision.kind === 'APPROVAL');
  return {
    approvalReason: approval?.kind === 'APPROVAL' ? approval.reason : undefined,
    spend: spendOf(
      snapshot.wallet.id,
      total,
      at,
      decisions[0]!.periodLimits,
      snapshot.counters,
      snapshot.policyVersion,
    ),
  };
}
