import type Big from 'big.js';
import { ApiError } from '../errors.js';
import { formatAmount } from '../money.js';
import { spendOf } from '../policies/spend.js';
import { evaluatePolicies } from '../policies/policy-rules.js';
import type { Policy } from '../policies/policy-types.js';
import { MERCHANT_PREFIX } from '../policies/recipients.js';
import type { SpendCount } from '../ledger/posting.js';
import type { WalletSnapshot } from '../wallets/ports.js';
import { cardExpired, cardSpendOf, categoryAllowed, exceededLimit, type CardSpendCount } from './card-rules.js';
import type { Card, DeclineReason, Merchant } from './types.js';

/**
 * The authorization decision (decisions.md section 5), as a pure function of what was read: the
 * card, the funding wallet with its policies and spend, the amount and the merchant. The same
 * checks run again at commit as conditions of the one transaction that holds the money (card
 * status and version, card limits, wallet status, wallet period limits, available funds), so a
 * decision made on a stale read can only turn into a decline, never into an overspend.
 */
export interface DecisionInput {
  card: Card;
  snapshot: WalletSnapshot | undefined;
  amount: Big;
  merchant: Merchant;
  at: Date;
}

export type Decision =
  | { approved: true; cardSpend: CardSpendCount; walletSpend: SpendCount }
  | { approved: false; reason: DeclineReason; detail: Record<string, unknown> };

/**
 * A merchant name as the card decision compares it with policy lists: Unicode-normalized (NFKC),
 * lower-cased, every run of characters other than letters and digits removed ("OpenAI, Inc." and
 * "OPENAI INC" -> "openaiinc"; "OpenAI" and "Open AI" -> "openai").
 */
export const normalizeMerchantName = (name: string): string =>
  name
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');

/** How a wallet's spend policies name a card merchant: `merchant:<normalized name>` (blockedRecipients, allowedRecipients). */
export const merchantRecipientOf = (merchant: Merchant): string =>
  `${MERCHANT_PREFIX}${normalizeMerchantName(merchant.name)}`;

const MERCHANT_ENTRY = /^merchant:/i;

/**
 * A policy list entry as the card decision compares it: a `merchant:` entry normalized the same
 * way as the card's merchant name, so `merchant:openai` matches "OpenAI" and "OPENAI". Only inside
 * the card decision: payments keep comparing `merchant:<domain>` as it is (dots included).
 */
const cardFormOf = (entry: string): string =>
  MERCHANT_ENTRY.test(entry)
    ? `${MERCHANT_PREFIX}${normalizeMerchantName(entry.slice(MERCHANT_PREFIX.length))}`
    : entry;

function cardFormsOf(policies: readonly Policy[]): Policy[] {
  return policies.map((policy) => ({
    ...policy,
    ...(policy.blockedRecipients ? { blockedRecipients: policy.blockedRecipients.map(cardFormOf) } : {}),
    ...(policy.allowedRecipients ? { allowedRecipients: policy.allowedRecipients.map(cardFormOf) } : {}),
  }));
}

const decline = (reason: DeclineReason, detail: Record<string, unknown> = {}): Decision => ({
  approved: false,
  reason,
  detail,
});

export function decideAuthorization(input: DecisionInput): Decision {
  const { card, snapshot, amount, merchant, at } = input;
  if (card.status === 'CANCELLED') return decline('card_cancelled');
  if (cardExpired(card, at)) return decline('card_expired');
  if (card.status !== 'ACTIVE') return decline('card_inactive');
  // A single-use card admits one live authorization (the commit checks the same on the card item).
  if (card.type === 'SINGLE_USE' && card.usedBy !== undefined) return decline('card_used');
  const wallet = snapshot?.wallet;
  if (!wallet || wallet.deletedAt) return decline('wallet_closed');
  if (wallet.status !== 'ACTIVE') return decline('wallet_frozen');
  if (!categoryAllowed(card.spendingLimits, merchant.category))
    return decline('category_blocked', { category: merchant.category.toLowerCase() });

  const cardSpend = cardSpendOf(card, amount, at);
  const exceeded = exceededLimit(card, cardSpend);
  if (exceeded)
    return decline('spending_limit_exceeded', { interval: exceeded.interval, limit: formatAmount(exceeded.limit) });

  // The wallet's own guardrails, as for a payment to `merchant:<name>`; a card can not wait for an approval.
  let walletSpend: SpendCount;
  try {
    const policy = evaluatePolicies(cardFormsOf(snapshot.policies), snapshot.counters, {
      walletId: wallet.id,
      to: merchantRecipientOf(merchant),
      amount,
      at,
    });
    if (policy.kind === 'APPROVAL') return decline('policy_denied', { rule: policy.reason });
    walletSpend = spendOf(wallet.id, amount, at, policy.periodLimits, snapshot.counters, snapshot.policyVersion);
  } catch (error) {
    if (error instanceof ApiError && error.code === 'POLICY_DENIED')
      return decline('policy_denied', { rule: error.details?.rule });
    throw error;
  }
  if (wallet.balance.lt(amount)) return decline('insufficient_funds');
  return { approved: true, cardSpend, walletSpend };
}

/**
 * The decline a failed condition at commit means (a concurrent authorization, freeze or payment
 * got there first): the reason, or undefined for failures that are not a decision (contention,
 * a taken idempotency slot), which the caller lets through.
 */
export function declineOfCommitFailure(error: unknown): DeclineReason | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const declineReason = error.details?.declineReason;
  if (typeof declineReason === 'string') return declineReason as DeclineReason;
  switch (error.code) {
    case 'WALLET_FROZEN':
      return 'wallet_frozen';
    case 'WALLET_NOT_FOUND':
      return 'wallet_closed';
    case 'INSUFFICIENT_FUNDS':
      return 'insufficient_funds';
    case 'POLICY_DENIED':
      return 'policy_denied';
    default:
      return undefined;
  }
}
