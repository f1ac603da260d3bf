import Big from 'big.js';
import type { AuditAction } from '../audit/actions.js';
import { loadAccessibleWallet, scopeOf } from '../access.js';
import { auditChange } from '../audit/audit.js';
import { ApiError, notFound } from '../errors.js';
import { formatAmount, parseAmount } from '../money.js';
import type { ServiceDeps } from '../ports.js';
import type { PolicyChange, PolicyStore } from './ports.js';
import { POLICY_STATES } from './policy-states.js';
import { targetOf } from '../state-table.js';
import type { RequestContext } from '../tenancy.js';
import type { Page, PageRequest } from '../types.js';
import type { AllowedHours, Policy } from './policy-types.js';

/** Amount fields of a policy: decimal strings; a limit of 0 is allowed (it denies everything). */
export interface PolicyInput {
  walletId: string;
  name: string;
  maxTransactionAmount: string | number;
  requireHumanApproval: boolean;
  dailyLimit?: string | number | null | undefined;
  weeklyLimit?: string | number | null | undefined;
  monthlyLimit?: string | number | null | undefined;
  allowedRecipients?: string[] | null | undefined;
  blockedRecipients?: string[] | null | undefined;
  allowedHoursUtc?: AllowedHours | null | undefined;
  approvalThreshold?: string | number | null | undefined;
}

export type PolicyPatch = Partial<Omit<PolicyInput, 'walletId'>>;

const LIMIT_FIELDS = ['dailyLimit', 'weeklyLimit', 'monthlyLimit', 'approvalThreshold'] as const;

function parseLimit(value: string | number, field: string): Big {
  // Limits may be zero ("0" denies every payment); otherwise the amount rules apply.
  if (value === '0' || value === 0 || value === '0.00') return new Big(0);
  return parseAmount(value, { field });
}

/** A policy record from its input: amounts parsed by the money rules, `null` removes an optional rule. */
export function buildPolicy(
  base: Omit<Policy, 'name' | 'maxTransactionAmount' | 'requireHumanApproval'> & Partial<Policy>,
  input: PolicyPatch,
): Policy {
  const next = { ...base } as Policy;
  if (input.name !== undefined) next.name = input.name;
  if (input.requireHumanApproval !== undefined) next.requireHumanApproval = input.requireHumanApproval;
  if (input.maxTransactionAmount !== undefined)
    next.maxTransactionAmount = parseLimit(input.maxTransactionAmount, 'maxTransactionAmount');
  for (const field of LIMIT_FIELDS) {
    const value = input[field];
    if (value === null) delete next[field];
    else if (value !== undefined) next[field] = parseLimit(value, field);
  }
  for (const field of ['allowedRecipients', 'blockedRecipients', 'allowedHoursUtc'] as const) {
    const value = input[field];
    if (value === null) delete next[field];
    else if (value !== undefined) (next as unknown as Record<string, unknown>)[field] = value;
  }
  return next;
}

/** Spend policies (decisions.md section 3). Reads: wallets:read; writes: organization-level wallets:write. */
export function createPolicyService(deps: ServiceDeps<PolicyStore>) {
  const { store, clock, ids } = deps;

  async function create(ctx: RequestContext, action: AuditAction, input: PolicyInput): Promise<Policy> {
    const scope = scopeOf(ctx.principal);
    const wallet = await loadAccessibleWallet(store, ctx.principal, input.walletId);
    const now = clock.now().toISOString();
    const policy = buildPolicy(
      {
        id: ids('policy'),
        walletId: wallet.id,
        ...scope,
        status: 'ACTIVE',
        createdAt: now,
        updatedAt: now,
        version: 1,
      },
      input,
    );
    await store.commit([
      { type: 'putPolicy', policy, isNew: true },
      auditChange(
        {
          ...scope,
          actor: ctx.actor,
          action,
          resource: 'policy',
          resourceId: policy.id,
          walletId: wallet.id,
          metadata: summary(policy),
          createdAt: now,
        },
        ids,
      ),
    ]);
    return policy;
  }

  async function get(ctx: RequestContext, policyId: string): Promise<Policy> {
    const scope = scopeOf(ctx.principal);
    const policy = await store.getPolicy(policyId);
    const visible =
      policy &&
      policy.status === 'ACTIVE' &&
      policy.organizationId === scope.organizationId &&
      (ctx.principal.walletId === null || ctx.principal.walletId === policy.walletId);
    if (!visible) throw notFound('POLICY_NOT_FOUND', policyId);
    if (policy.environment !== scope.environment) throw new ApiError('ENVIRONMENT_MISMATCH');
    return policy;
  }

  async function list(ctx: RequestContext, walletId: string | undefined, page: PageRequest): Promise<Page<Policy>> {
    const scope = scopeOf(ctx.principal);
    const filter = walletId ?? ctx.principal.walletId ?? undefined;
    if (filter !== undefined && filter !== ctx.principal.walletId)
      await loadAccessibleWallet(store, ctx.principal, filter);
    return store.listPolicies(scope.organizationId, scope.environment, filter, page);
  }

  /** The write of a changed policy, conditioned on the version read: a concurrent write since makes it CONCURRENT_UPDATE. */
  function changeOf(current: Policy, next: Policy): PolicyChange {
    const expectedVersion = current.version ?? 0;
    return { type: 'putPolicy', policy: { ...next, version: expectedVersion + 1 }, isNew: false, expectedVersion };
  }

  async function update(
    ctx: RequestContext,
    action: AuditAction,
    policyId: string,
    patch: PolicyPatch,
  ): Promise<Policy> {
    const scope = scopeOf(ctx.principal);
    const current = await get(ctx, policyId);
    const now = clock.now().toISOString();
    const change = changeOf(current, buildPolicy({ ...current, updatedAt: now }, patch));
    const policy = change.policy;
    await store.commit([
      change,
      auditChange(
        {
          ...scope,
          actor: ctx.actor,
          action,
          resource: 'policy',
          resourceId: policy.id,
          walletId: policy.walletId,
          metadata: { changed: Object.keys(patch) },
          createdAt: now,
        },
        ids,
      ),
    ]);
    return policy;
  }

  /** Deleted policies stop applying at once and stay stored for the audit trail. */
  async function remove(
    ctx: RequestContext,
    action: AuditAction,
    policyId: string,
  ): Promise<{ id: string; deleted: true }> {
    const scope = scopeOf(ctx.principal);
    const current = await get(ctx, policyId);
    const now = clock.now().toISOString();
    await store.commit([
      changeOf(current, { ...current, status: targetOf(POLICY_STATES, 'delete'), updatedAt: now }),
      auditChange(
        {
          ...scope,
          actor: ctx.actor,
          action,
          resource: 'policy',
          resourceId: policyId,
          walletId: current.walletId,
          metadata: { name: current.name },
          createdAt: now,
        },
        ids,
      ),
    ]);
    return { id: policyId, deleted: true };
  }

  return { create, get, list, update, remove };
}

function summary(policy: Policy): Record<string, unknown> {
  return {
    name: policy.name,
    maxTransactionAmount: formatAmount(policy.maxTransactionAmount),
    requireHumanApproval: policy.requireHumanApproval,
  };
}

export type PolicyService = ReturnType<typeof createPolicyService>;
