import type { AuditAction } from '../audit/actions.js';
import { ApiError } from '../errors.js';
import { canTransition } from '../state-table.js';
import type { RequestContext } from '../tenancy.js';
import { SYSTEM_ACTOR, type PaymentLinkKernel, type PaymentLinkServiceDeps } from './payment-link-kernel.js';
import { PAYMENT_LINK_STATES } from './payment-link-states.js';
import { linkHoldVoid } from './payment-link-postings.js';
import type { PresentableLink } from './payment-link-view.js';
import type { PaymentLink } from './types.js';

/** Links expired per `expireDue` call (the sweep calls again while a full batch came back). */
export const PAYMENT_LINK_EXPIRY_BATCH_SIZE = 25;

export type PaymentLinkExpiryOutcome = 'expired' | 'ended' | 'not-found' | 'not-due';

/**
 * A link's end without a claim: the owner's cancel (ACTIVE only) and the expiry at `expiresAt`
 * (ACTIVE or PENDING_APPROVAL). Each is ONE transaction: the hold's void (its HELD -> VOIDED
 * condition releases it exactly once when a cancel and an expiry race), the transition, the audit
 * entry and the event.
 */
export function paymentLinkLifecycle(deps: PaymentLinkServiceDeps, kernel: PaymentLinkKernel) {
  const { store, clock, ids } = deps;

  async function cancel(ctx: RequestContext, action: AuditAction, linkId: string): Promise<PresentableLink> {
    const link = await kernel.load(ctx, linkId);
    if (!canTransition(PAYMENT_LINK_STATES, link.status, 'cancel'))
      throw kernel.invalidState(link, 'only an ACTIVE link can be cancelled');
    const at = clock.now().toISOString();
    const cancelled: PaymentLink = { ...link, status: 'CANCELLED', cancelledAt: at, updatedAt: at };
    await store.commit([
      linkHoldVoid(link, ids('transaction'), at),
      {
        type: 'transitionPaymentLink',
        linkId: link.id,
        trigger: 'cancel',
        set: { cancelledAt: at, updatedAt: at },
      },
      kernel.auditOf(ctx.actor, cancelled, action, at),
      kernel.eventOf('payment_link.cancelled', cancelled, at),
    ]);
    return kernel.withUrl(cancelled);
  }

  /**
   * The expiry queue's message for one link (its one-time schedule fired): expires it if it is still
   * ACTIVE or PENDING_APPROVAL and due. Idempotent: a link claimed, cancelled or expired meanwhile is
   * left alone (`ended`); `not-due` (a schedule fired early) lets the caller have it delivered again.
   */
  async function expire(action: AuditAction, linkId: string): Promise<PaymentLinkExpiryOutcome> {
    const link = await store.getPaymentLink(linkId);
    if (!link) return 'not-found';
    if (!canTransition(PAYMENT_LINK_STATES, link.status, 'expire')) return 'ended';
    const now = clock.now();
    if (Date.parse(link.expiresAt) > now.getTime()) return 'not-due';
    const at = now.toISOString();
    const expired: PaymentLink = { ...link, status: 'EXPIRED', expiredAt: at, updatedAt: at };
    try {
      await store.commit([
        linkHoldVoid(link, ids('transaction'), at),
        { type: 'transitionPaymentLink', linkId: link.id, trigger: 'expire', set: { expiredAt: at, updatedAt: at } },
        kernel.auditOf(SYSTEM_ACTOR, expired, action, at),
        kernel.eventOf('payment_link.expired', expired, at),
      ]);
      return 'expired';
    } catch (error) {
      // Claimed, cancelled or expired between the read and the write: its own transaction did the rest.
      if (error instanceof ApiError && error.code === 'INVALID_STATE') return 'ended';
      throw error;
    }
  }

  /**
   * The expiry sweep's safety net (functions/expiry-sweep): ACTIVE and PENDING_APPROVAL links past
   * `expiresAt` whose one-time schedule did not expire them, oldest first, at most
   * PAYMENT_LINK_EXPIRY_BATCH_SIZE, each by `expire` (idempotent: one claimed, cancelled or expired
   * meanwhile is left alone). Returns how many were listed (a full batch: call again); a failure is
   * logged and the link stays listed for the next run.
   */
  async function expireDue(action: AuditAction): Promise<number> {
    const due = await store.listExpiringPaymentLinks(clock.now(), PAYMENT_LINK_EXPIRY_BATCH_SIZE);
    for (const link of due) {
      try {
        await expire(action, link.id);
      } catch (error) {
        deps.log.error(`expiring payment link ${link.id} failed; it is looked at again later`, error);
      }
    }
    return due.length;
  }

  return { cancel, expire, expireDue };
}
