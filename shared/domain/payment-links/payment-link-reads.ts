import { assertAccessible, scopeOf } from '../access.js';
import { notFound } from '../errors.js';
import type { RequestContext } from '../tenancy.js';
import type { Page, PageRequest } from '../types.js';
import type { PaymentLinkKernel, PaymentLinkServiceDeps } from './payment-link-kernel.js';
import { claimableStatusOf } from './payment-link-rules.js';
import { presentPaymentLinkClaim, type PaymentLinkClaimView, type PresentableLink } from './payment-link-view.js';
import type { PaymentLinkFilter } from './ports.js';
import type { PaymentLink } from './types.js';

/** Reading links: the owner's get and list (tenancy as every area), and the public view by slug. */
export function paymentLinkReads(deps: PaymentLinkServiceDeps, kernel: PaymentLinkKernel) {
  const { store } = deps;

  async function get(ctx: RequestContext, linkId: string): Promise<PresentableLink> {
    return kernel.withUrl(await kernel.load(ctx, linkId));
  }

  /** Newest first. A wallet-scoped key lists its own wallet's only; a `walletId` it may not see answers WALLET_NOT_FOUND. */
  async function list(
    ctx: RequestContext,
    filter: PaymentLinkFilter,
    page: PageRequest,
  ): Promise<Page<PresentableLink>> {
    const scope = scopeOf(ctx.principal);
    const walletId = filter.walletId ?? ctx.principal.walletId ?? undefined;
    if (walletId !== undefined) assertAccessible(ctx.principal, await store.getWallet(walletId), walletId);
    const result = await store.listPaymentLinks(scope, { walletId, status: filter.status }, page);
    return { ...result, items: result.items.map(kernel.withUrl) };
  }

  /** The link a slug names, or PAYMENT_LINK_NOT_FOUND. */
  async function bySlug(slug: string): Promise<PaymentLink> {
    const link = await store.getPaymentLinkBySlug(slug);
    if (!link) throw notFound('PAYMENT_LINK_NOT_FOUND');
    return link;
  }

  /** The public view (no key): amount, currency, description, status, expiry, whether restricted, environment. */
  async function getClaim(slug: string): Promise<PaymentLinkClaimView> {
    const link = await bySlug(slug);
    return presentPaymentLinkClaim({ ...link, status: claimableStatusOf(link, deps.clock.now()) });
  }

  return { get, list, bySlug, getClaim };
}

export type PaymentLinkReads = ReturnType<typeof paymentLinkReads>;
