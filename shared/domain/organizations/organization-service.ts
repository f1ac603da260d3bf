import { ApiError } from '../errors.js';
import type { AuditAction } from '../audit/actions.js';
import { auditChange, eventChange } from '../audit/audit.js';
import type { ChangeOf } from '../change-committer.js';
import type { ServiceDeps } from '../ports.js';
import type { OrganizationStore } from './ports.js';
import { ORGANIZATION_PERMISSIONS, type RequestContext } from '../tenancy.js';
import type { KybStatus, Organization } from '../types.js';
import { mintKey } from '../api-keys/grants.js';
import { newMainWallet } from '../wallets/wallet-rules.js';

export interface CreatedOrganization {
  organization: Organization;
  sandboxKey: string;
  sandboxKeyId: string;
  mainWalletId: string;
}

/** Operator actions on organizations (decisions.md section 1). */
export function createOrganizationService(deps: ServiceDeps<OrganizationStore>) {
  const { store, clock, ids } = deps;

  async function create(
    ctx: RequestContext,
    action: AuditAction,
    input: { name: string },
  ): Promise<CreatedOrganization> {
    const now = clock.now().toISOString();
    const organization: Organization = {
      id: ids('organization'),
      name: input.name,
      createdAt: now,
      kybStatus: 'NOT_SUBMITTED',
    };
    const wallet = newMainWallet(ids('wallet'), organization.id, 'SANDBOX', now);
    // The organization's first key: the root of its authority, minted by the operator (grants.ts).
    const { apiKey, raw } = mintKey(
      deps.issueKey,
      { organizationRoot: true },
      {
        id: ids('apiKey'),
        name: 'Default sandbox key',
        organizationId: organization.id,
        environment: 'SANDBOX',
        permissions: ORGANIZATION_PERMISSIONS,
        walletId: null,
        createdAt: now,
      },
    );
    const scope = { organizationId: organization.id, environment: 'SANDBOX' as const };
    const changes: ChangeOf<OrganizationStore>[] = [
      { type: 'createOrganization', organization },
      { type: 'createEnvironment', organizationId: organization.id, environment: 'SANDBOX', mainWalletId: wallet.id },
      { type: 'createWallet', wallet },
      { type: 'createApiKey', apiKey },
      auditChange(
        {
          ...scope,
          actor: ctx.actor,
          action,
          resource: 'organization',
          resourceId: organization.id,
          metadata: { name: organization.name, mainWalletId: wallet.id, sandboxKeyId: apiKey.id },
          createdAt: now,
        },
        ids,
      ),
      eventChange(
        {
          ...scope,
          type: 'organization.created',
          data: { id: organization.id, name: organization.name },
          createdAt: now,
        },
        ids,
      ),
    ];
    await store.commit(changes);
    return { organization, sandboxKey: raw, sandboxKeyId: apiKey.id, mainWalletId: wallet.id };
  }

  /** The operator's KYB decision. */
  async function decideKyb(
    ctx: RequestContext,
    action: AuditAction,
    organizationId: string,
    status: Extract<KybStatus, 'VERIFIED' | 'REJECTED'>,
  ) {
    const organization = await store.getOrganization(organizationId);
    if (!organization) throw new ApiError('ORGANIZATION_NOT_FOUND');
    const now = clock.now().toISOString();
    await store.commit([
      { type: 'updateOrganization', organizationId, set: { kybStatus: status } },
      auditChange(
        {
          organizationId,
          environment: 'SANDBOX',
          actor: ctx.actor,
          action,
          resource: 'organization',
          resourceId: organizationId,
          metadata: { status },
          createdAt: now,
        },
        ids,
      ),
    ]);
    return { id: organizationId, kybStatus: status };
  }

  return { create, decideKyb };
}

export type OrganizationService = ReturnType<typeof createOrganizationService>;
