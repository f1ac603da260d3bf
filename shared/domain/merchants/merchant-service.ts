import { loadAccessibleWallet, scopeOf } from '../access.js';
import type { AuditAction } from '../audit/actions.js';
import { auditChange } from '../audit/audit.js';
import { ApiError } from '../errors.js';
import type { ServiceDeps } from '../ports.js';
import type { MerchantStore } from './ports.js';
import { MERCHANT_STATES } from './merchant-states.js';
import { targetOf } from '../state-table.js';
import { ENVIRONMENTS, type RequestContext } from '../tenancy.js';
import type { MerchantProfile } from '../types.js';

/** Merchant profiles: `to: "merchant:<domain>"` pays the profile's wallet (decisions.md section 3). */
export function createMerchantService(deps: ServiceDeps<MerchantStore>) {
  const { store, clock, ids } = deps;

  async function upsert(
    ctx: RequestContext,
    action: AuditAction,
    input: { domain: string; displayName: string; walletId: string; closedLoop: boolean },
  ): Promise<MerchantProfile> {
    const scope = scopeOf(ctx.principal);
    const wallet = await loadAccessibleWallet(store, ctx.principal, input.walletId);
    const domain = input.domain.toLowerCase();
    const existing = await store.getMerchant(scope.environment, domain);
    if (existing && existing.organizationId !== scope.organizationId) {
      throw new ApiError('INVALID_STATE', `The domain ${domain} belongs to another merchant.`, { field: 'domain' });
    }
    const now = clock.now().toISOString();
    const merchant: MerchantProfile = {
      domain,
      ...scope,
      displayName: input.displayName,
      walletId: wallet.id,
      closedLoop: input.closedLoop,
      status: existing?.status ?? 'ACTIVE',
      createdAt: existing?.createdAt ?? now,
      updatedAt: now,
    };
    await store.commit([
      { type: 'putMerchant', merchant, isNew: !existing, ...(existing ? { expectedStatus: existing.status } : {}) },
      auditChange(
        {
          ...scope,
          actor: ctx.actor,
          action,
          resource: 'merchant',
          resourceId: domain,
          walletId: wallet.id,
          metadata: { closedLoop: input.closedLoop },
          createdAt: now,
        },
        ids,
      ),
    ]);
    return merchant;
  }

  /** Operator: suspends the domain in every environment where it has a profile. */
  async function suspend(
    ctx: RequestContext,
    action: AuditAction,
    rawDomain: string,
  ): Promise<{ domain: string; status: 'SUSPENDED' }> {
    const domain = rawDomain.toLowerCase();
    const now = clock.now().toISOString();
    const profiles = (
      await Promise.all(ENVIRONMENTS.map((environment) => store.getMerchant(environment, domain)))
    ).filter((m): m is MerchantProfile => m !== undefined);
    if (profiles.length === 0) throw new ApiError('MERCHANT_NOT_FOUND');
    await store.commit(
      profiles.flatMap((merchant) => [
        {
          type: 'putMerchant' as const,
          merchant: { ...merchant, status: targetOf(MERCHANT_STATES, 'suspend'), updatedAt: now },
          isNew: false,
        },
        auditChange(
          {
            organizationId: merchant.organizationId,
            environment: merchant.environment,
            actor: ctx.actor,
            action,
            resource: 'merchant',
            resourceId: domain,
            metadata: {},
            createdAt: now,
          },
          ids,
        ),
      ]),
    );
    return { domain, status: 'SUSPENDED' };
  }

  return { upsert, suspend };
}

export type MerchantService = ReturnType<typeof createMerchantService>;
