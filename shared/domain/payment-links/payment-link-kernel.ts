import { scopeOf } from '../access.js';
import type { AuditAction } from '../audit/actions.js';
import { auditChange, eventChange } from '../audit/audit.js';
import type { AuditChange } from '../audit/ports.js';
import { ApiError, notFound } from '../errors.js';
import type { EmittedEventName } from '../event-names.js';
import type { ExpiryScheduler } from '../expiries/ports.js';
import { HOSTED_PATHS, type HostedUrl } from '../hosted-urls.js';
import type { ServiceDeps } from '../ports.js';
import type { Actor, RequestContext } from '../tenancy.js';
import { presentPaymentLink, type PresentableLink } from './payment-link-view.js';
import type { PaymentLinkStore } from './ports.js';
import type { ClaimByRail } from './rail-claim-port.js';
import type { PaymentLink } from './types.js';

export interface PaymentLinkServiceDeps extends ServiceDeps<PaymentLinkStore> {
  /** The absolute URL of a hosted page path (config's public base URL). */
  hostedUrl: HostedUrl;
  /** One-time schedules: a link's expiry at `expiresAt`, an approval's expiry. */
  expiries?: ExpiryScheduler | undefined;
  /** The ach/usdc claim (payment-link-rail-claim.ts); absent: those methods answer INVALID_STATE. */
  claimByRail?: ClaimByRail | undefined;
  log: Pick<Console, 'error'>;
}

type PaymentLinkEventName = Extract<EmittedEventName, `payment_link.${string}`>;

/** Who acts on a link without a key: its expiry, a rail's outcome. */
export const SYSTEM_ACTOR: Actor = { actorType: 'SYSTEM', actorId: 'payment-link', ipAddress: '127.0.0.1' };

/**
 * What every part of the payment-link service shares: the link as the caller may see it, its URL,
 * the audit entry and the event written in each transaction, and its expiry's schedule.
 */
export function paymentLinkKernel(deps: PaymentLinkServiceDeps) {
  const { store, ids } = deps;

  const withUrl = (link: PaymentLink): PresentableLink => ({
    ...link,
    url: deps.hostedUrl(HOSTED_PATHS.paymentLink(link.slug)),
  });

  /**
   * A link the caller may see: another organization's, or (for a wallet-scoped key) another
   * wallet's, answers PAYMENT_LINK_NOT_FOUND; the caller's own in the other environment ENVIRONMENT_MISMATCH.
   */
  async function load(ctx: RequestContext, linkId: string): Promise<PaymentLink> {
    const scope = scopeOf(ctx.principal);
    const link = await store.getPaymentLink(linkId);
    if (!link || link.organizationId !== scope.organizationId) throw notFound('PAYMENT_LINK_NOT_FOUND', linkId);
    const own = ctx.principal.walletId;
    if (own !== null && link.walletId !== own) throw notFound('PAYMENT_LINK_NOT_FOUND', linkId);
    if (link.environment !== scope.environment) throw new ApiError('ENVIRONMENT_MISMATCH');
    return link;
  }

  const invalidState = (link: Pick<PaymentLink, 'status'>, what: string) =>
    new ApiError('INVALID_STATE', `The payment link is ${link.status}; ${what}.`, { status: link.status });

  const auditOf = (
    actor: Actor,
    link: PaymentLink,
    action: AuditAction,
    at: string,
    metadata: Record<string, unknown> = {},
  ): AuditChange =>
    auditChange(
      {
        organizationId: link.organizationId,
        environment: link.environment,
        actor,
        action,
        resource: 'payment_link',
        resourceId: link.id,
        walletId: link.walletId,
        metadata: { status: link.status, amount: link.amount, fee: link.fee, currency: link.currency, ...metadata },
        createdAt: at,
      },
      ids,
    );

  const eventOf = (type: PaymentLinkEventName, link: PaymentLink, at: string): AuditChange =>
    eventChange(
      {
        organizationId: link.organizationId,
        environment: link.environment,
        type,
        data: presentPaymentLink(withUrl(link)),
        createdAt: at,
      },
      ids,
    );

  /** After the commit: a schedule that could not be created is logged (the link stays claimable until someone cancels it). */
  async function scheduleExpiry(link: PaymentLink): Promise<void> {
    if (!deps.expiries) return;
    try {
      await deps.expiries.schedule({ kind: 'paymentLink', id: link.id }, link.expiresAt);
    } catch (error) {
      deps.log.error(`could not schedule the expiry of ${link.id}`, error);
    }
  }

  return { withUrl, load, invalidState, auditOf, eventOf, scheduleExpiry };
}

export type PaymentLinkKernel = ReturnType<typeof paymentLinkKernel>;
