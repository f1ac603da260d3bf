import { scopeOf } from '../access.js';
import type { AuditAction } from '../audit/actions.js';
import { auditChange } from '../audit/audit.js';
import { ApiError, validationError } from '../errors.js';
import type { ChangeOf } from '../change-committer.js';
import type { ServiceDeps } from '../ports.js';
import type { ActivationStore } from './ports.js';
import { ACTIVATION_REQUIREMENTS, type ActivationRequirement } from './requirements.js';
import { KYB_STATES } from '../organizations/kyb-states.js';
import type { OrganizationUpdate } from '../organizations/ports.js';
import { canTransition, targetOf } from '../state-table.js';
import type { RequestContext } from '../tenancy.js';
import type { Organization } from '../types.js';
import { newMainWallet } from '../wallets/wallet-rules.js';

/** Sandbox billing cards (decisions.md section 11): 4242... succeeds, 4000...0002 declines. */
export const DECLINED_TEST_CARD = '4000000000000002';

export interface ActivationStatus {
  kybVerified: boolean;
  tosAccepted: boolean;
  billingMethodAdded: boolean;
  productionActivated: boolean;
  kybStatus: Organization['kybStatus'];
  productionActivatedAt: string | null;
}

export function activationStatusOf(organization: Organization): ActivationStatus {
  return {
    kybVerified: organization.kybStatus === 'VERIFIED',
    tosAccepted: organization.tosAcceptance !== undefined,
    billingMethodAdded: organization.billingMethod !== undefined,
    productionActivated: organization.productionActivatedAt !== undefined,
    kybStatus: organization.kybStatus,
    productionActivatedAt: organization.productionActivatedAt ?? null,
  };
}

export function missingRequirements(status: ActivationStatus): ActivationRequirement[] {
  return ACTIVATION_REQUIREMENTS.filter((requirement) => !status[requirement]);
}

export function luhnValid(number: string): boolean {
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return number.length >= 12 && sum % 10 === 0;
}

export interface ActivationOptions {
  kybAutoApprove: boolean;
}

/** Production activation (interface-spec 4.3, decisions.md section 11). */
export function createActivationService(deps: ServiceDeps<ActivationStore>, options: ActivationOptions) {
  const { store, clock, ids } = deps;

  async function load(ctx: RequestContext) {
    const scope = scopeOf(ctx.principal);
    const organization = await store.getOrganization(scope.organizationId);
    if (!organization) throw new ApiError('ORGANIZATION_NOT_FOUND');
    return { scope, organization };
  }

  async function update(
    ctx: RequestContext,
    organization: Organization,
    set: OrganizationUpdate,
    action: AuditAction,
    metadata: Record<string, unknown>,
    unless?: Extract<ChangeOf<ActivationStore>, { type: 'updateOrganization' }>['unless'],
  ) {
    const scope = scopeOf(ctx.principal);
    await store.commit([
      { type: 'updateOrganization', organizationId: organization.id, set, ...(unless ? { unless } : {}) },
      auditChange(
        {
          ...scope,
          actor: ctx.actor,
          action,
          resource: 'organization',
          resourceId: organization.id,
          metadata,
          createdAt: clock.now().toISOString(),
        },
        ids,
      ),
    ]);
    return activationStatusOf({ ...organization, ...set });
  }

  async function status(ctx: RequestContext): Promise<ActivationStatus> {
    return activationStatusOf((await load(ctx)).organization);
  }

  async function acceptTos(ctx: RequestContext, action: AuditAction, input: { tosVersion: string }) {
    const { organization } = await load(ctx);
    const acceptance = {
      tosVersion: input.tosVersion,
      ipAddress: ctx.actor.ipAddress,
      acceptedAt: clock.now().toISOString(),
    };
    const result = await update(ctx, organization, { tosAcceptance: acceptance }, action, {
      tosVersion: input.tosVersion,
    });
    return { ...result, tosAcceptance: acceptance };
  }

  async function submitKyb(
    ctx: RequestContext,
    action: AuditAction,
    input: { legalName: string; taxId: string; address: Record<string, string> },
  ) {
    const { organization } = await load(ctx);
    if (!canTransition(KYB_STATES, organization.kybStatus, 'submit'))
      throw new ApiError('INVALID_STATE', 'Business verification is already complete.');
    const kyb = { ...input, submittedAt: clock.now().toISOString() };
    const kybStatus = targetOf(KYB_STATES, options.kybAutoApprove ? 'autoVerify' : 'submit');
    return update(
      ctx,
      organization,
      { kyb, kybStatus },
      action,
      { legalName: input.legalName, kybStatus },
      { field: 'kybStatus', equals: 'VERIFIED' },
    );
  }

  async function addBillingMethod(ctx: RequestContext, action: AuditAction, input: { type: 'card'; number: string }) {
    const { organization } = await load(ctx);
    if (!luhnValid(input.number)) throw validationError('number', 'is not a valid card number');
    if (input.number === DECLINED_TEST_CARD) throw validationError('number', 'the card was declined');
    const billingMethod = { type: input.type, last4: input.number.slice(-4), addedAt: clock.now().toISOString() };
    return update(ctx, organization, { billingMethod }, action, { type: input.type, last4: billingMethod.last4 });
  }

  /** Creates the production main wallet; calling it again after activation answers the same result. */
  async function activateProduction(ctx: RequestContext, action: AuditAction) {
    const { scope, organization } = await load(ctx);
    if (organization.productionActivatedAt) return { activated: true, activatedAt: organization.productionActivatedAt };
    const missing = missingRequirements(activationStatusOf(organization));
    if (missing.length > 0) {
      throw new ApiError(
        'ACTIVATION_INCOMPLETE',
        `Activation requirements missing: ${missing.join(', ')}.`,
        { missing },
        { missing },
      );
    }
    const activatedAt = clock.now().toISOString();
    const wallet = newMainWallet(ids('wallet'), organization.id, 'PRODUCTION', activatedAt);
    await store.commit([
      {
        type: 'updateOrganization',
        organizationId: organization.id,
        set: { productionActivatedAt: activatedAt },
        unless: { field: 'productionActivatedAt' },
      },
      {
        type: 'createEnvironment',
        organizationId: organization.id,
        environment: 'PRODUCTION',
        mainWalletId: wallet.id,
      },
      { type: 'createWallet', wallet },
      auditChange(
        {
          ...scope,
          actor: ctx.actor,
          action,
          resource: 'organization',
          resourceId: organization.id,
          metadata: { productionMainWalletId: wallet.id },
          createdAt: activatedAt,
        },
        ids,
      ),
    ]);
    return { activated: true, activatedAt };
  }

  return { status, acceptTos, submitKyb, addBillingMethod, activateProduction };
}

export type ActivationService = ReturnType<typeof createActivationService>;
