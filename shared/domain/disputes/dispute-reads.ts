import { scopeOf } from '../access.js';
import type { RequestContext } from '../tenancy.js';
import type { DisputeKernel } from './dispute-kernel.js';
import type { DisputePage } from './dispute-view.js';
import type { DisputeServiceDeps } from './ports.js';
import type { Dispute, DisputeStatus } from './types.js';

/** Reading disputes: one (either party's key), and a page of a caller's by limit and offset. */
export function disputeReads(deps: DisputeServiceDeps, kernel: DisputeKernel) {
  async function get(ctx: RequestContext, disputeId: string): Promise<Dispute> {
    return (await kernel.load(ctx, disputeId)).dispute;
  }

  /**
   * The disputes where the caller's organization is the initiator or the respondent (an agent key:
   * where its wallet is the paying or the receiving one), in the key's environment, newest first:
   * reads `offset + limit + 1` of them (offset at most MAX_DISPUTE_OFFSET) and skips `offset`.
   */
  async function list(
    ctx: RequestContext,
    filter: { status?: DisputeStatus | undefined },
    page: { limit: number; offset: number },
  ): Promise<DisputePage> {
    const scope = scopeOf(ctx.principal);
    const walletId = ctx.principal.walletId ?? undefined;
    const found = await deps.store.listDisputes(
      scope,
      { walletId, status: filter.status },
      page.offset + page.limit + 1,
    );
    return {
      items: found.slice(page.offset, page.offset + page.limit),
      hasMore: found.length > page.offset + page.limit,
      limit: page.limit,
      offset: page.offset,
    };
  }

  return { get, list };
}
