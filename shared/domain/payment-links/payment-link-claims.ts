import type { AuditAction } from '../audit/actions.js';
import { ApiError } from '../errors.js';
import {
  answerChange,
  claimOf,
  fingerprintOf,
  runIdempotent,
  type IdempotentResponse,
  type KeyClaim,
} from '../idempotency/idempotency.js';
import type { IdempotencyChange } from '../idempotency/ports.js';
import type { Actor, RequestContext } from '../tenancy.js';
import type { PaymentLinkKernel, PaymentLinkServiceDeps } from './payment-link-kernel.js';
import { linkWalletCapture } from './payment-link-postings.js';
import type { PaymentLinkReads } from './payment-link-reads.js';
import {
  assertDestinationMatches,
  assertRecipientAllowed,
  claimableStatusOf,
  fingerprintDestinationOf,
  railDestinationOf,
  type ClaimDestinationInput,
} from './payment-link-rules.js';
import {
  presentPaymentLinkClaim,
  presentPaymentLinkClaimResult,
  type PaymentLinkClaimResult,
} from './payment-link-view.js';
import type { ClaimMethod, PaymentLink } from './types.js';

export interface ClaimPaymentLinkInput {
  method: ClaimMethod;
  destination: ClaimDestinationInput;
  recipientEmail?: string | undefined;
}

/** The link's own wallet is not ACTIVE (a paused agent, a frozen wallet): no detail names it (a public route). */
const linkWalletFrozen = () =>
  new ApiError('WALLET_FROZEN', 'The payment link can not be claimed now: the wallet that funds it is frozen.');

/**
 * Who acts on the public claim: an unknown party (no key, no customer the organization knows), so a
 * fixed actor as the other public operations without a known party use (SYSTEM), from the request's
 * address. The email a claimant types is unverified: it goes in the entry's metadata, never as the actor.
 */
const CLAIMANT_ACTOR_ID = 'payment-link-claimant';
const claimantActor = (ctx: RequestContext): Actor => ({
  actorType: 'SYSTEM',
  actorId: CLAIMANT_ACTOR_ID,
  ipAddress: ctx.actor.ipAddress,
});
/** The claimant's email as given (lower-cased, unverified) in the audit entry's metadata. */
const emailOf = (recipientEmail: string | undefined) => (recipientEmail !== undefined ? { recipientEmail } : {});

/**
 * The public claim (docs/api.md "Payment links"), idempotent with the Idempotency-Key header (the
 * slot in the link's organization environment, the key namespaced by the link). Order of checks:
 * the link exists -> ACTIVE -> restrictions -> its own wallet ACTIVE -> destination. A wallet claim is ONE transaction: the
 * hold captured (amount to the claimant, the fee back), ACTIVE -> SETTLED, both events, the audit
 * entry and the key's answer; ach/usdc go through the rail claim (rail-claim-port.ts).
 */
export function paymentLinkClaims(deps: PaymentLinkServiceDeps, kernel: PaymentLinkKernel, reads: PaymentLinkReads) {
  const { store, clock, ids } = deps;

  async function claimToWallet(
    link: PaymentLink,
    walletId: string,
    recipientEmail: string | undefined,
    actor: Actor,
    action: AuditAction,
    answer: (body: PaymentLinkClaimResult) => IdempotencyChange[],
  ): Promise<PaymentLinkClaimResult> {
    const field = { field: 'destination.walletId' };
    const wallet = await store.getWallet(walletId);
    // Any organization's wallet of the link's environment; anything else is unknown to a stranger.
    if (!wallet || wallet.environment !== link.environment) throw new ApiError('WALLET_NOT_FOUND', undefined, field);
    if (wallet.status !== 'ACTIVE' || wallet.deletedAt)
      throw new ApiError('WALLET_FROZEN', undefined, { ...field, walletId });
    if (wallet.id === link.walletId)
      throw new ApiError('SELF_PAYMENT', 'A payment link can not be claimed to the wallet that funds it.', field);
    const now = clock.now();
    const at = now.toISOString();
    const transactionId = ids('transaction');
    const claim = {
      method: 'wallet' as const,
      destination: { type: 'WALLET' as const, walletId: wallet.id },
      ...(recipientEmail !== undefined ? { recipientEmail } : {}),
      claimedAt: at,
    };
    const set: Partial<PaymentLink> = { claim, transactionId, settledAt: at, updatedAt: at };
    const settled: PaymentLink = { ...link, ...set, status: 'SETTLED' };
    const body = presentPaymentLinkClaimResult({ ...presentPaymentLinkClaim(settled), transactionId });
    try {
      await store.commit([
        { type: 'transitionPaymentLink', linkId: link.id, trigger: 'claimToWallet', set },
        linkWalletCapture(link, wallet.id, transactionId, at),
        kernel.auditOf(actor, settled, action, at, {
          method: 'wallet',
          claimantWalletId: wallet.id,
          transactionId,
          ...emailOf(recipientEmail),
        }),
        kernel.eventOf('payment_link.claimed', settled, at),
        kernel.eventOf('payment_link.settled', settled, at),
        ...answer(body),
      ]);
    } catch (error) {
      // The link's wallet frozen since it was read: the public answer never names that wallet.
      if (error instanceof ApiError && error.code === 'WALLET_FROZEN' && error.details?.walletId === link.walletId)
        throw linkWalletFrozen();
      throw error;
    }
    return body;
  }

  async function claim(
    ctx: RequestContext,
    action: AuditAction,
    slug: string,
    input: ClaimPaymentLinkInput,
    idempotencyKey?: string,
  ): Promise<IdempotentResponse> {
    assertDestinationMatches(input.method, input.destination);
    const recipientEmail = input.recipientEmail?.toLowerCase();
    const found = await reads.bySlug(slug);
    const scope = { organizationId: found.organizationId, environment: found.environment };
    const keyClaim =
      idempotencyKey === undefined
        ? undefined
        : await claimOf(
            scope,
            `claim:${found.id}:${idempotencyKey}`,
            fingerprintOf('paymentLink.claim', {
              method: input.method,
              destination: fingerprintDestinationOf(input.destination),
              recipientEmail,
            }),
            idempotencyKey,
          );
    const actor = claimantActor(ctx);
    return runIdempotent(store, keyClaim, clock.now(), () => ids('transaction'), {
      execute: async (slotId, slot: KeyClaim | undefined) => {
        const answer = (body: PaymentLinkClaimResult): IdempotencyChange[] =>
          slot ? [answerChange(slotId, slot, 200, body, clock.now())] : [];
        const link = (await store.getPaymentLink(found.id)) ?? found;
        const status = claimableStatusOf(link, clock.now());
        if (status !== 'ACTIVE')
          throw kernel.invalidState(
            { status },
            status === 'PENDING_APPROVAL' ? 'it is not claimable yet' : 'it can not be claimed',
          );
        assertRecipientAllowed(link, {
          method: input.method,
          walletId: input.destination.type === 'WALLET' ? input.destination.walletId : undefined,
          recipientEmail,
        });
        // Any method: no money leaves a frozen wallet (the wallet claim's capture also requires it ACTIVE).
        const funding = await store.getWallet(link.walletId);
        if (!funding || funding.status !== 'ACTIVE' || funding.deletedAt) throw linkWalletFrozen();
        if (input.destination.type === 'WALLET') {
          const body = await claimToWallet(link, input.destination.walletId, recipientEmail, actor, action, answer);
          return { status: 200, body, replayed: false };
        }
        const destination = railDestinationOf(input.destination);
        if (!deps.claimByRail)
          throw new ApiError('INVALID_STATE', `Claims by ${input.method} are not available yet.`, {
            status: link.status,
          });
        const claimed = await deps.claimByRail({
          link,
          destination,
          recipientEmail,
          now: clock.now(),
          claimChanges: (after) => {
            const at = after.updatedAt;
            const body = presentPaymentLinkClaimResult(presentPaymentLinkClaim(after));
            return [
              kernel.auditOf(actor, after, action, at, {
                method: input.method,
                transferId: after.claim?.transferId,
                ...emailOf(recipientEmail),
                ...(destination.type === 'ACH'
                  ? { routingNumber: destination.routingNumber, last4: destination.accountNumber.slice(-4) }
                  : { address: destination.address, chain: destination.chain }),
              }),
              kernel.eventOf('payment_link.claimed', after, at),
              ...answer(body),
            ];
          },
        });
        return { status: 200, body: presentPaymentLinkClaimResult(presentPaymentLinkClaim(claimed)), replayed: false };
      },
    });
  }

  return { claim };
}
