import { approvalRequestChanges, linkApprovalOf } from '../approvals/approval-requests.js';
import { assertAccessible, scopeOf } from '../access.js';
import type { AuditAction } from '../audit/actions.js';
import { ApiError } from '../errors.js';
import {
  answerChange,
  claimOf,
  fingerprintOf,
  runIdempotent,
  type IdempotentResponse,
} from '../idempotency/idempotency.js';
import { formatAmount, parseAmount } from '../money.js';
import type { RequestContext } from '../tenancy.js';
import type { Approval } from '../types.js';
import type { PaymentLinkKernel, PaymentLinkServiceDeps } from './payment-link-kernel.js';
import { linkPolicyOutcome } from './payment-link-policy.js';
import { linkHold } from './payment-link-postings.js';
import { expiresAtOf, linkFeeOf, newPaymentLinkSlug, normalizedRestrictions } from './payment-link-rules.js';
import { presentPaymentLink } from './payment-link-view.js';
import type { PaymentLink, PaymentLinkCurrency } from './types.js';

export interface CreatePaymentLinkInput {
  walletId: string;
  amount: unknown;
  /** USD (default) or USDC: what the link says it pays; held 1:1 on the (USD) wallet. */
  currency?: PaymentLinkCurrency | undefined;
  description?: string | undefined;
  recipientRestrictions?: { emails?: string[] | undefined; walletIds?: string[] | undefined } | undefined;
  expiresAt?: string | undefined;
  metadata?: Record<string, string> | undefined;
}

/** The 202 of a link queued for a person's approval (its hold is taken; it becomes ACTIVE once approved). */
export function approvalRequiredAnswer(link: PaymentLink, approval: Approval): IdempotentResponse {
  return {
    status: 202,
    body: {
      error: {
        code: 'APPROVAL_REQUIRED',
        message:
          'A spend policy requires human approval: the link is PENDING_APPROVAL with its amount and fee held, and becomes ACTIVE once approved.',
        details: {
          approvalId: approval.id,
          transactionId: link.holdId,
          expiresAt: approval.expiresAt,
          paymentLinkId: link.id,
        },
      },
    },
    replayed: false,
  };
}

/**
 * Creating a link (docs/api.md "Payment links"): the wallet's checks (frozen, spend policies on
 * amount + fee), then ONE transaction: the hold, the link with its slug's uniqueness item, its audit
 * entry and event, the key's answer; when a policy asks for approval, also the approval record and
 * `approval.requested` (the link PENDING_APPROVAL, 202). Its expiry is scheduled after the commit.
 */
export function paymentLinkCreation(deps: PaymentLinkServiceDeps, kernel: PaymentLinkKernel) {
  const { store, clock, ids } = deps;

  async function scheduleApprovalExpiry(approval: Approval): Promise<void> {
    if (!deps.expiries) return;
    try {
      await deps.expiries.schedule({ kind: 'approval', id: approval.id }, approval.expiresAt);
    } catch (error) {
      deps.log.error(`could not schedule the expiry of ${approval.id}; the expiry sweep will expire it`, error);
    }
  }

  async function create(
    ctx: RequestContext,
    action: AuditAction,
    input: CreatePaymentLinkInput,
    idempotencyKey?: string,
  ): Promise<IdempotentResponse> {
    const scope = scopeOf(ctx.principal);
    const amount = parseAmount(input.amount);
    const fee = linkFeeOf(amount);
    const total = amount.plus(fee);
    const restrictions = normalizedRestrictions(input.recipientRestrictions);
    const currency = input.currency ?? 'USD';
    const fingerprint = fingerprintOf('paymentLink.create', {
      walletId: input.walletId,
      amount: formatAmount(amount),
      currency,
      description: input.description,
      recipientRestrictions: restrictions,
      expiresAt: input.expiresAt,
      metadata: input.metadata,
      scope: ctx.principal.walletId ?? 'organization',
    });
    const claim = idempotencyKey === undefined ? undefined : await claimOf(scope, idempotencyKey, fingerprint);
    return runIdempotent(store, claim, clock.now(), () => ids('transaction'), {
      execute: async (slotId, keyClaim) => {
        const now = clock.now();
        const at = now.toISOString();
        const expiresAt = expiresAtOf(input.expiresAt, now);
        const snapshot = await store.getWalletSnapshot(input.walletId);
        const wallet = assertAccessible(ctx.principal, snapshot?.wallet, input.walletId);
        if (wallet.status !== 'ACTIVE' || wallet.deletedAt)
          throw new ApiError('WALLET_FROZEN', undefined, { walletId: wallet.id });
        const outcome = linkPolicyOutcome(snapshot!, restrictions, total, now);
        const base: PaymentLink = {
          id: ids('paymentLink'),
          ...scope,
          walletId: wallet.id,
          slug: newPaymentLinkSlug(),
          amount: formatAmount(amount),
          currency,
          fee: formatAmount(fee),
          ...(input.description !== undefined ? { description: input.description } : {}),
          ...(restrictions ? { recipientRestrictions: restrictions } : {}),
          expiresAt,
          ...(input.metadata !== undefined && Object.keys(input.metadata).length > 0
            ? { metadata: input.metadata }
            : {}),
          status: 'ACTIVE',
          holdId: ids('transaction'),
          createdByKeyId: ctx.principal.keyId,
          ...(idempotencyKey !== undefined ? { idempotencyKey } : {}),
          createdAt: at,
          updatedAt: at,
        };
        const answer = (status: number, body: unknown) =>
          keyClaim ? [answerChange(slotId, keyClaim, status, body, now)] : [];

        if (outcome.approvalReason !== undefined) {
          const approval = linkApprovalOf(base, {
            id: ids('approval'),
            reason: outcome.approvalReason,
            requestedByKeyId: ctx.principal.keyId,
            now,
            timeScale: deps.timeScale,
          });
          const link: PaymentLink = { ...base, status: 'PENDING_APPROVAL', approvalId: approval.id };
          const response = approvalRequiredAnswer(link, approval);
          await store.commit([
            linkHold(link, at, outcome.spend),
            { type: 'putPaymentLink', link },
            kernel.auditOf(ctx.actor, link, action, at, { approvalId: approval.id }),
            kernel.eventOf('payment_link.created', link, at),
            ...approvalRequestChanges(approval, ids),
            ...answer(response.status, response.body),
          ]);
          await Promise.all([scheduleApprovalExpiry(approval), kernel.scheduleExpiry(link)]);
          return response;
        }

        const body = presentPaymentLink(kernel.withUrl(base));
        await store.commit([
          linkHold(base, at, outcome.spend),
          { type: 'putPaymentLink', link: base },
          kernel.auditOf(ctx.actor, base, action, at),
          kernel.eventOf('payment_link.created', base, at),
          ...answer(201, body),
        ]);
        await kernel.scheduleExpiry(base);
        return { status: 201, body, replayed: false };
      },
    });
  }

  return { create };
}
