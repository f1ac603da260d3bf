import type { AuditAction } from '../audit/actions.js';
import { AUDIT } from '../audit/actions.js';
import { auditChange, eventChange } from '../audit/audit.js';
import type { ExpiryScheduler } from '../expiries/ports.js';
import { HOSTED_PATHS, type HostedUrl } from '../hosted-urls.js';
import type { IdGenerator } from '../ids.js';
import type { LinkRiderChange, LinkUnpaid, TransferLinkRider } from '../transfers/transfer-link-rider.js';
import type { Transfer } from '../transfers/types.js';
import { SYSTEM_ACTOR } from './payment-link-kernel.js';
import { presentPaymentLink } from './payment-link-view.js';
import type { PaymentLinkTrigger } from './payment-link-states.js';
import type { PaymentLink } from './types.js';

export interface PaymentLinkTransfersDeps {
  links: { getPaymentLink(linkId: string): Promise<PaymentLink | undefined> };
  ids: IdGenerator;
  /** The absolute URL of a hosted page path (the link's `url` in its events). */
  hostedUrl: HostedUrl;
  /** The link's expiry, scheduled again when a failed claim makes it ACTIVE (its schedule may have fired while it was CLAIMED). */
  expiries?: ExpiryScheduler | undefined;
  log: Pick<Console, 'error'>;
}

/**
 * The end of an ach/usdc claim, decided by its transfer (shared/domain/transfers/transfer-link-rider.ts),
 * in the transfer's own transaction (docs/api.md "Payment links", "Claims to a bank account or USDC address"):
 *
 * - completed (the hold captured: amount to the rail, fee to acc_FEES): CLAIMED -> SETTLED
 *   (`settle`), event `payment_link.settled`, audit `payment-link.settle` (SYSTEM);
 * - rejected, failed or cancelled: CLAIMED -> ACTIVE (`unclaim`) with `lastClaimFailure`, the hold
 *   intact (it is the link's again: claimable anew), audit `payment-link.claim-failed` (SYSTEM), no
 *   link event (the transfer's `withdrawal.failed`/`.cancelled` says it); or, once `expiresAt` has
 *   passed, CLAIMED -> EXPIRED (`lapse`) with the hold voided, event `payment_link.expired`.
 *
 * The link must be CLAIMED by this very transfer; anything else is a broken invariant and fails
 * the transfer's transition (the workflow and the reconciler try again, and log it).
 */
export function paymentLinkTransfers(deps: PaymentLinkTransfersDeps): TransferLinkRider {
  const { ids } = deps;

  async function claimedBy(transfer: Transfer): Promise<PaymentLink> {
    const link = await deps.links.getPaymentLink(transfer.paymentLinkId!);
    if (!link || link.status !== 'CLAIMED' || link.claim?.transferId !== transfer.id)
      throw new Error(
        `the payment link ${transfer.paymentLinkId} is not CLAIMED by ${transfer.id} (${link?.status ?? 'missing'})`,
      );
    return link;
  }

  const audit = (link: PaymentLink, action: AuditAction, at: string, metadata: Record<string, unknown>) =>
    auditChange(
      {
        organizationId: link.organizationId,
        environment: link.environment,
        actor: SYSTEM_ACTOR,
        action,
        resource: 'payment_link',
        resourceId: link.id,
        walletId: link.walletId,
        metadata: { status: link.status, amount: link.amount, fee: link.fee, currency: link.currency, ...metadata },
        createdAt: at,
      },
      ids,
    );

  const event = (type: 'payment_link.settled' | 'payment_link.expired', link: PaymentLink, at: string) =>
    eventChange(
      {
        organizationId: link.organizationId,
        environment: link.environment,
        type,
        data: presentPaymentLink({ ...link, url: deps.hostedUrl(HOSTED_PATHS.paymentLink(link.slug)) }),
        createdAt: at,
      },
      ids,
    );

  const transition = (link: PaymentLink, trigger: PaymentLinkTrigger, set: Partial<PaymentLink>): LinkRiderChange => ({
    type: 'transitionPaymentLink',
    linkId: link.id,
    trigger,
    set,
  });

  async function onCompleted(transfer: Transfer, at: string): Promise<LinkRiderChange[]> {
    const link = await claimedBy(transfer);
    const set: Partial<PaymentLink> = {
      settledAt: at,
      updatedAt: at,
      ...(transfer.transactionId ? { transactionId: transfer.transactionId } : {}),
    };
    const settled: PaymentLink = { ...link, ...set, status: 'SETTLED' };
    return [
      transition(link, 'settle', set),
      audit(settled, AUDIT.paymentLink.settle, at, {
        method: link.claim!.method,
        transferId: transfer.id,
        transactionId: transfer.transactionId,
      }),
      event('payment_link.settled', settled, at),
    ];
  }

  async function onUnpaid(transfer: Transfer, at: string): Promise<LinkUnpaid> {
    const link = await claimedBy(transfer);
    const reason = transfer.failureReason ?? (transfer.status === 'CANCELLED' ? 'TRANSFER_CANCELLED' : 'FAILED');
    const lastClaimFailure = { reason, at };
    const failed = { method: link.claim!.method, transferId: transfer.id, reason };
    if (Date.parse(link.expiresAt) <= Date.parse(at)) {
      const set: Partial<PaymentLink> = { lastClaimFailure, expiredAt: at, updatedAt: at };
      const expired: PaymentLink = { ...link, ...set, status: 'EXPIRED' };
      return {
        changes: [
          transition(link, 'lapse', set),
          audit(expired, AUDIT.paymentLink.claimFailed, at, failed),
          audit(expired, AUDIT.paymentLink.expire, at, { transferId: transfer.id }),
          event('payment_link.expired', expired, at),
        ],
        voidHold: true,
        holdTakenAt: link.createdAt,
      };
    }
    // `expiresAt` (unchanged) puts the link back on the expiry sweep's queue (payment-link-writers.ts).
    const set: Partial<PaymentLink> = { lastClaimFailure, expiresAt: link.expiresAt, updatedAt: at };
    await rescheduleExpiry(link);
    return {
      changes: [
        transition(link, 'unclaim', set),
        audit({ ...link, ...set, status: 'ACTIVE' }, AUDIT.paymentLink.claimFailed, at, failed),
      ],
      voidHold: false,
    };
  }

  /**
   * The link's expiry schedule may have fired while it was CLAIMED (and left it alone): schedule it
   * again before the link is ACTIVE (one schedule per link: a schedule still pending is kept). Not
   * fatal: the expiry sweep also expires ACTIVE links past due.
   */
  async function rescheduleExpiry(link: PaymentLink): Promise<void> {
    if (!deps.expiries) return;
    try {
      await deps.expiries.schedule({ kind: 'paymentLink', id: link.id }, link.expiresAt);
    } catch (error) {
      deps.log.error(`could not schedule the expiry of ${link.id} again`, error);
    }
  }

  return { onCompleted, onUnpaid };
}
