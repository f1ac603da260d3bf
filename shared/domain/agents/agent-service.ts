import Big from 'big.js';
import type { AuditAction } from '../audit/actions.js';
import { assertAccessible, scopeOf } from '../access.js';
import { auditChange, eventChange } from '../audit/audit.js';
import type { ChangeOf } from '../change-committer.js';
type AgentChange = ChangeOf<AgentStore>;
import { ApiError, notFound, validationError } from '../errors.js';
import {
  claimOf,
  fingerprintOf,
  postingClaim,
  runIdempotent,
  type IdempotentResponse,
} from '../idempotency/idempotency.js';
import { transferLegs, walletAccount, type Leg } from '../ledger/posting.js';
import { formatAmount, formatBalance, parseAmount } from '../money.js';
import { buildPolicy, type PolicyPatch } from '../policies/policy-service.js';
import type { Policy } from '../policies/policy-types.js';
import type { ServiceDeps } from '../ports.js';
import type { AgentStore } from './ports.js';
import { API_KEY_STATES } from '../api-keys/api-key-states.js';
import { canTransition } from '../state-table.js';
import { mintKey } from '../api-keys/grants.js';
import {
  AGENT_PERMISSIONS,
  DEFAULT_AGENT_PERMISSIONS,
  type OrganizationPermission,
  type OrganizationScope,
  type RequestContext,
} from '../tenancy.js';
import type { ApiKey, Page, PageRequest, Wallet } from '../types.js';
import { newWallet } from '../wallets/wallet-rules.js';
import { findTemplate } from './agent-templates.js';

export const MAX_POLICIES_PER_AGENT = 10;

export interface CreateAgentInput {
  name: string;
  permissions?: string[] | undefined;
  policies?: PolicyPatch[] | undefined;
}

export interface AgentDetails {
  wallet: Wallet;
  apiKey: ApiKey | undefined;
  policies: Policy[];
}

/** Agents (interface-spec 4.1): an AGENT wallet, its scoped key and optional policies, as one unit. */
export function createAgentService(deps: ServiceDeps<AgentStore>) {
  const { store, clock, ids } = deps;

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
      ...policies.map((policy): AgentChange => ({ type: 'putPolicy', policy, isNew: true })),
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

  /** An AGENT wallet the caller may see; any other wallet answers WALLET_NOT_FOUND. */
  async function loadAgent(ctx: RequestContext, agentId: string): Promise<Wallet> {
    const wallet = assertAccessible(ctx.principal, await store.getWallet(agentId), agentId);
    if (wallet.walletType !== 'AGENT') throw notFound('WALLET_NOT_FOUND', agentId);
    return wallet;
  }

  async function get(ctx: RequestContext, agentId: string): Promise<AgentDetails> {
    const snapshot = await store.getWalletSnapshot(agentId);
    const wallet = assertAccessible(ctx.principal, snapshot?.wallet, agentId);
    if (wallet.walletType !== 'AGENT') throw notFound('WALLET_NOT_FOUND', agentId);
    const apiKey = wallet.activeKeyId ? await store.getApiKeyById(wallet.activeKeyId) : undefined;
    return { wallet, apiKey, policies: snapshot!.policies.filter((p) => p.status === 'ACTIVE') };
  }

  async function list(ctx: RequestContext, includeDeleted: boolean, page: PageRequest): Promise<Page<Wallet>> {
    const scope = scopeOf(ctx.principal);
    if (ctx.principal.walletId) {
      const own = await store.getWallet(ctx.principal.walletId);
      return { items: own && own.walletType === 'AGENT' && (includeDeleted || !own.deletedAt) ? [own] : [] };
    }
    return store.listAgents(scope.organizationId, scope.environment, includeDeleted, page);
  }

  async function mainWalletOf(scope: OrganizationScope): Promise<string> {
    const mainWalletId = await store.getMainWalletId(scope.organizationId, scope.environment);
    if (!mainWalletId) throw new Error(`organization ${scope.organizationId} has no ${scope.environment} main wallet`);
    return mainWalletId;
  }

  /** One double-entry transaction between the main wallet and the agent wallet, either way. */
  async function adjustBudget(
    ctx: RequestContext,
    action: AuditAction,
    agentId: string,
    rawAmount: unknown,
    idempotencyKey: string | undefined,
  ): Promise<IdempotentResponse> {
    const scope = scopeOf(ctx.principal);
    const amount = parseAmount(rawAmount, { allowNegative: true });
    const amountText = formatAmount(amount);
    const fingerprint = fingerprintOf('agent.adjust-budget', { agentId, amount: amountText });
    const claim = idempotencyKey === undefined ? undefined : await claimOf(scope, idempotencyKey, fingerprint);
    // The answer carries the balance read after the commit, so the key's journal record is
    // written in flight and completed right after; a request that died in between is answered
    // from the record (recover) once it is stale.
    const complete = async (transactionId: string, walletId: string): Promise<IdempotentResponse> => {
      const after = await store.getWallet(walletId);
      const body = {
        id: walletId,
        adjustment: Number(amountText),
        newBalance: formatBalance(after?.balance ?? new Big(0)),
        currency: 'USD',
        transactionId,
      };
      if (claim) await store.completeIdempotentMovement(transactionId, JSON.stringify(body));
      return { status: 200, body, replayed: false };
    };
    return runIdempotent(store, claim, clock.now(), () => ids('transaction'), {
      recover: (record) => complete(record.id, record.audit?.resourceId ?? agentId),
      execute: async (transactionId, keyClaim) => {
        const agent = await loadAgent(ctx, agentId);
        if (agent.deletedAt) throw new ApiError('WALLET_FROZEN', 'The agent is deleted.', { walletId: agent.id });
        const mainWalletId = await mainWalletOf(scope);
        const at = clock.now().toISOString();
        const credit = amount.gt(0);
        const [from, to] = credit ? [mainWalletId, agent.id] : [agent.id, mainWalletId];
        const magnitude = amount.abs();
        const changes: AgentChange[] = [
          {
            type: 'posting',
            posting: {
              transactionId,
              type: 'BUDGET_ADJUSTMENT',
              ...scope,
              currency: 'USD',
              legs: transferLegs(walletAccount(from), walletAccount(to), magnitude),
              createdAt: at,
              description: credit ? 'Budget increase' : 'Budget decrease',
              attributes: {
                from,
                to,
                amount: formatAmount(magnitude),
                fee: '0.00',
                status: 'POSTED',
                postedAt: at,
                payeeOrganizationId: scope.organizationId,
                requestedByKeyId: ctx.principal.keyId,
                ...(idempotencyKey ? { idempotencyKey } : {}),
              },
              record: 'create',
              ...(keyClaim ? { idempotency: { ...postingClaim(keyClaim), awaitsReply: true } } : {}),
              // The audit entry (wallet.budget.adjust, naming the agent) is projected from the journal record.
              audit: { action, actor: ctx.actor, resourceId: agent.id },
            },
          },
        ];
        await store.commit(changes);
        return complete(transactionId, agent.id);
      },
    });
  }

  async function setStatus(ctx: RequestContext, action: AuditAction, agentId: string, target: 'FROZEN' | 'ACTIVE') {
    const scope = scopeOf(ctx.principal);
    const agent = await loadAgent(ctx, agentId);
    if (agent.deletedAt) throw new ApiError('INVALID_STATE', 'The agent is deleted.');
    if (agent.status === target) return { id: agent.id, status: target };
    const at = clock.now().toISOString();
    await store.commit([
      {
        type: 'updateWallet',
        walletId: agent.id,
        trigger: target === 'FROZEN' ? 'freeze' : 'unfreeze',
        set: { status: target },
      },
      auditChange(
        {
          ...scope,
          actor: ctx.actor,
          action,
          resource: 'wallet',
          resourceId: agent.id,
          walletId: agent.id,
          metadata: { status: target },
          createdAt: at,
        },
        ids,
      ),
      eventChange(
        {
          ...scope,
          type: target === 'FROZEN' ? 'agent.paused' : 'agent.resumed',
          data: { id: agent.id, status: target },
          createdAt: at,
        },
        ids,
      ),
    ]);
    return { id: agent.id, status: target };
  }

  /**
   * Old key revoked and new key issued in one transaction: there is always exactly one valid key.
   * The new key holds the old one's permissions and expiry (never, if it had none), so the caller
   * must hold them too and not expire before it (grants.ts: else 403 PERMISSION_DENIED). A
   * key no longer ACTIVE (an admin revoked it) is never replaced: a revocation is final
   * (409 INVALID_STATE; docs/api.md "Agents").
   */
  async function rotateKey(ctx: RequestContext, action: AuditAction, agentId: string) {
    const scope = scopeOf(ctx.principal);
    const agent = await loadAgent(ctx, agentId);
    if (agent.deletedAt) throw new ApiError('INVALID_STATE', 'The agent is deleted.');
    const old = agent.activeKeyId ? await store.getApiKeyById(agent.activeKeyId) : undefined;
    if (!old) throw new Error(`agent ${agent.id} has no key record`);
    const now = clock.now().toISOString();
    if (!canTransition(API_KEY_STATES, old.status, 'revoke') || (old.expiresAt !== undefined && old.expiresAt <= now)) {
      throw new ApiError(
        'INVALID_STATE',
        "The agent's key was revoked; a revoked key is never replaced. Delete the agent (its balance returns to the main wallet) and create a new one.",
        { apiKeyId: old.id, keyStatus: old.status === 'ACTIVE' ? 'EXPIRED' : old.status },
      );
    }
    const { apiKey, raw } = mintKey(
      deps.issueKey,
      { principal: ctx.principal },
      {
        id: ids('apiKey'),
        name: old.name,
        ...scope,
        permissions: old.permissions,
        walletId: agent.id,
        createdAt: now,
        expiresAt: old.expiresAt ?? null,
      },
    );
    // Conditioned on the old key still ACTIVE too: an admin's revocation meanwhile makes this 409 INVALID_STATE, never a new key.
    await store.commit([
      { type: 'updateWallet', walletId: agent.id, set: { activeKeyId: apiKey.id }, expectedActiveKeyId: old.id },
      { type: 'revokeApiKey', apiKey: old, revokedAt: now },
      { type: 'createApiKey', apiKey },
      auditChange(
        {
          ...scope,
          actor: ctx.actor,
          action,
          resource: 'api-key',
          resourceId: apiKey.id,
          walletId: agent.id,
          metadata: { revokedKeyId: old.id },
          createdAt: now,
        },
        ids,
      ),
    ]);
    return { id: agent.id, apiKey: raw, apiKeyId: apiKey.id, revokedKeyId: old.id };
  }

  /**
   * Freezes for good, sweeps the balance to the main wallet and revokes the agent's key; the record
   * stays. A concurrent key rotation must never leave its new key ACTIVE on the deleted agent, so
   * the wallet's close is conditioned on the active key id read (the wallet update of an empty
   * agent, or the sweep's close leg of a funded one), and that key's revocation on its being
   * ACTIVE. The loser answers 409 CONCURRENT_UPDATE.
   */
  async function remove(ctx: RequestContext, action: AuditAction, agentId: string) {
    const scope = scopeOf(ctx.principal);
    const agent = await loadAgent(ctx, agentId);
    if (agent.deletedAt) throw new ApiError('INVALID_STATE', 'The agent is already deleted.');
    // Money still held (a pending withdrawal) or clearing (an ACH deposit) would be stranded on a
    // closed wallet: the transfers finish (or are cancelled) first. The close is conditioned on it too.
    if (agent.heldBalance.gt(0) || agent.pendingBalance.gt(0)) {
      throw new ApiError(
        'INVALID_STATE',
        'The agent has money held or clearing (a pending withdrawal or deposit); delete it once its transfers have finished.',
        { heldBalance: formatBalance(agent.heldBalance), pendingBalance: formatBalance(agent.pendingBalance) },
      );
    }
    // A deposit or withdrawal not yet settled would settle on the closed wallet: it finishes (or is cancelled) first.
    if (await store.hasOpenTransfers(agent)) {
      throw new ApiError(
        'INVALID_STATE',
        'The agent has transfers still in flight; delete it once they have finished (or cancel them).',
        { openTransfers: true },
      );
    }
    const mainWalletId = await mainWalletOf(scope);
    const activeKey = agent.activeKeyId ? await store.getApiKeyById(agent.activeKeyId) : undefined;
    const keyRevocable = activeKey !== undefined && canTransition(API_KEY_STATES, activeKey.status, 'revoke');
    const at = clock.now().toISOString();
    const closing = { status: 'FROZEN', deletedAt: at };
    const swept = agent.balance;
    const changes: AgentChange[] = [];
    if (swept.gt(0)) {
      const legs: Leg[] = [
        {
          account: walletAccount(agent.id),
          amount: swept.times(-1),
          close: {
            expectedBalance: swept,
            set: closing,
            ...(agent.activeKeyId ? { expectedActiveKeyId: agent.activeKeyId } : {}),
          },
        },
        { account: walletAccount(mainWalletId), amount: swept },
      ];
      const transactionId = ids('transaction');
      changes.push({
        type: 'posting',
        posting: {
          transactionId,
          type: 'SWEEP',
          ...scope,
          currency: 'USD',
          legs,
          createdAt: at,
          description: 'Agent deleted: balance returned',
          attributes: {
            from: agent.id,
            to: mainWalletId,
            amount: formatAmount(swept),
            fee: '0.00',
            status: 'POSTED',
            postedAt: at,
            payeeOrganizationId: scope.organizationId,
          },
          record: 'create',
        },
      });
    } else {
      // Conditioned on the empty balance: money landing meanwhile makes this a retryable 409, never stranded.
      // And on the active key read: a rotation meanwhile makes this a retryable 409, never a new key left ACTIVE.
      changes.push({
        type: 'updateWallet',
        walletId: agent.id,
        trigger: 'close',
        set: { status: 'FROZEN', deletedAt: at },
        expectedBalance: swept,
        ...(agent.activeKeyId ? { expectedActiveKeyId: agent.activeKeyId } : {}),
      });
    }
    if (keyRevocable) changes.push({ type: 'revokeApiKey', apiKey: activeKey, revokedAt: at });
    changes.push(
      auditChange(
        {
          ...scope,
          actor: ctx.actor,
          action,
          resource: 'wallet',
          resourceId: agent.id,
          walletId: agent.id,
          metadata: { sweptAmount: formatBalance(swept), currency: 'USD', recipientWalletId: mainWalletId },
          createdAt: at,
        },
        ids,
      ),
      eventChange(
        { ...scope, type: 'agent.deleted', data: { id: agent.id, sweptAmount: formatBalance(swept) }, createdAt: at },
        ids,
      ),
    );
    try {
      await store.commit(changes);
    } catch (error) {
      // The key read ACTIVE was revoked meanwhile by a rotation (not by a concurrent deletion): the same retryable answer.
      if (keyRevocable && error instanceof ApiError && error.code === 'INVALID_STATE') {
        const [wallet, key] = await Promise.all([store.getWallet(agent.id), store.getApiKeyById(activeKey.id)]);
        if (!wallet?.deletedAt && key?.status !== 'ACTIVE') throw keyRotatedConcurrently();
      }
      throw error;
    }
    return { id: agent.id, deleted: true, sweptAmount: formatBalance(swept) };
  }

  return {
    create,
    createFromTemplate,
    get,
    list,
    adjustBudget,
    pause: (ctx: RequestContext, action: AuditAction, id: string) => setStatus(ctx, action, id, 'FROZEN'),
    resume: (ctx: RequestContext, action: AuditAction, id: string) => setStatus(ctx, action, id, 'ACTIVE'),
    rotateKey,
    remove,
  };
}

function keyRotatedConcurrently(): ApiError {
  return new ApiError('CONCURRENT_UPDATE', "The agent's key was rotated meanwhile; retry.", { retryAfter: 1 });
}

export type AgentService = ReturnType<typeof createAgentService>;
