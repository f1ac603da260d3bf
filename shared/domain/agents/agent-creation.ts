/** Agent creation: an AGENT wallet, its scoped key and optional policies in one transaction, directly or from a template. */
import type { AuditAction } from '../audit/actions.js';
import { scopeOf } from '../access.js';
import { mintKey } from '../api-keys/grants.js';
import { auditChange, eventChange } from '../audit/audit.js';
import type { ChangeOf } from '../change-committer.js';
import { validationError } from '../errors.js';
import { buildPolicy, type PolicyPatch } from '../policies/policy-service.js';
import type { ServiceDeps } from '../ports.js';
import {
  AGENT_PERMISSIONS,
  DEFAULT_AGENT_PERMISSIONS,
  type OrganizationPermission,
  type RequestContext,
} from '../tenancy.js';
import type { Wallet } from '../types.js';
import { newWallet } from '../wallets/wallet-rules.js';
import { findTemplate } from './agent-templates.js';
import type { AgentStore } from './ports.js';

type AgentChange = ChangeOf<AgentStore>;

export const MAX_POLICIES_PER_AGENT = 10;

export interface CreateAgentInput {
  name: string;
  permissions?: string[] | undefined;
  policies?: PolicyPatch[] | undefined;
}

/** The agent key's permissions: the requested ones (or the defaults), each an agent permission (else 400). */
function checkPermissions(requested: string[] | undefined): OrganizationPermission[] {
  if (requested === undefined) return [...DEFAULT_AGENT_PERMISSIONS];
  const allowed = new Set<string>(AGENT_PERMISSIONS);
  requested.forEach((permission, index) => {
    if (!allowed.has(permission))
      throw validationError(`permissions.${index}`, `"${permission}" cannot be granted to an agent key`);
  });
  return [...new Set(requested)] as OrganizationPermission[];
}

export function createAgentCreation(deps: ServiceDeps<AgentStore>) {
  const { store, clock, ids } = deps;

  /** One transaction: wallet slot, wallet, scoped key, policies, audit entry and event. */
  async function create(ctx: RequestContext, action: AuditAction, input: CreateAgentInput, templateId?: string) {
    const scope = scopeOf(ctx.principal);
    const permissions = checkPermissions(input.permissions);
    if ((input.policies?.length ?? 0) > MAX_POLICIES_PER_AGENT)
      throw validationError('policies', `at most ${MAX_POLICIES_PER_AGENT} policies`);
    const now = clock.now().toISOString();
    const walletId = ids('wallet');
    const apiKeyId = ids('apiKey');
    const wallet: Wallet = {
      ...newWallet({
        id: walletId,
        ...scope,
        name: input.name,
        agentName: input.name,
        walletType: 'AGENT',
        isMain: false,
        createdAt: now,
      }),
      activeKeyId: apiKeyId,
    };
    const policies = (input.policies ?? []).map((policyInput) =>
      buildPolicy(
        { id: ids('policy'), walletId: wallet.id, ...scope, status: 'ACTIVE', createdAt: now, updatedAt: now },
        policyInput,
      ),
    );
    for (const [index, policy] of policies.entries()) {
      if (policy.maxTransactionAmount === undefined || policy.requireHumanApproval === undefined || !policy.name) {
        throw validationError(`policies.${index}`, 'needs name, maxTransactionAmount and requireHumanApproval');
      }
    }
    // A key grants only what it holds (grants.ts), the defaults and a template's included; the agent's key expires with the caller's, if it does.
    const { apiKey, raw } = mintKey(
      deps.issueKey,
      { principal: ctx.principal },
      { id: apiKeyId, name: `${input.name} agent key`, ...scope, permissions, walletId, createdAt: now },
    );
    await store.commit([
      { type: 'reserveWalletSlot', ...scope, limit: deps.limits.walletsPerEnvironment },
      { type: 'createWallet', wallet },
      { type: 'createApiKey', apiKey },
      ...policies.map((policy): AgentChange => ({ type: 'putPolicy', policy, isNew: true, withNewWallet: true })),
      auditChange(
        {
          ...scope,
          actor: ctx.actor,
          action,
          resource: 'wallet',
          resourceId: wallet.id,
          walletId: wallet.id,
          metadata: {
            walletType: 'AGENT',
            name: input.name,
            apiKeyId: apiKey.id,
            permissions,
            policyIds: policies.map((p) => p.id),
            ...(templateId ? { templateId } : {}),
          },
          createdAt: now,
        },
        ids,
      ),
      eventChange(
        {
          ...scope,
          type: 'agent.created',
          data: {
            id: wallet.id,
            name: input.name,
            apiKeyId: apiKey.id,
            permissions,
            ...(templateId ? { templateId } : {}),
          },
          createdAt: now,
        },
        ids,
      ),
    ]);
    return { wallet, apiKey, rawKey: raw, policies };
  }

  async function createFromTemplate(
    ctx: RequestContext,
    action: AuditAction,
    input: { name: string; templateId: string },
  ) {
    const template = findTemplate(input.templateId);
    if (!template) throw validationError('templateId', 'is not a known template');
    const policy: PolicyPatch = {
      name: template.name,
      maxTransactionAmount: template.maxTransactionAmount,
      requireHumanApproval: template.requireHumanApproval,
      dailyLimit: template.dailyLimit,
    };
    return create(
      ctx,
      action,
      { name: input.name, permissions: template.permissions, policies: [policy] },
      template.templateId,
    );
  }

  return { create, createFromTemplate };
}
