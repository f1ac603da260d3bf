/** An agent's lifecycle: pause and resume (freeze, unfreeze) and deletion (balance swept to the main wallet, key revoked). */
import type { AuditAction } from '../audit/actions.js';
import { scopeOf } from '../access.js';
import { API_KEY_STATES } from '../api-keys/api-key-states.js';
import { auditChange, eventChange } from '../audit/audit.js';
import type { ChangeOf } from '../change-committer.js';
import { ApiError } from '../errors.js';
import { walletAccount, type Leg } from '../ledger/posting.js';
import { formatAmount, formatBalance } from '../money.js';
import type { ServiceDeps } from '../ports.js';
import { canTransition } from '../state-table.js';
import type { RequestContext } from '../tenancy.js';
import { loadAgent, mainWalletOf } from './agent-reads.js';
import type { AgentStore } from './ports.js';

type AgentChange = ChangeOf<AgentStore>;

export function createAgentLifecycle(deps: ServiceDeps<AgentStore>) {
  const { store, clock, ids } = deps;

  async function setStatus(ctx: RequestContext, action: AuditAction, agentId: string, target: 'FROZEN' | 'ACTIVE') {
    const scope = scopeOf(ctx.principal);
    const agent = await loadAgent(store, ctx, agentId);
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
   * Freezes for good, sweeps the balance to the main wallet and revokes the agent's key; the record
   * stays. A concurrent key rotation must never leave its new key ACTIVE on the deleted agent, so
   * the wallet's close is conditioned on the active key id read (the wallet update of an empty
   * agent, or the sweep's close leg of a funded one), and that key's revocation on its being
   * ACTIVE. The loser answers 409 CONCURRENT_UPDATE.
   */
  async function remove(ctx: RequestContext, action: AuditAction, agentId: string) {
    const scope = scopeOf(ctx.principal);
    const agent = await loadAgent(store, ctx, agentId);
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
    const mainWalletId = await mainWalletOf(store, scope);
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
    pause: (ctx: RequestContext, action: AuditAction, id: string) => setStatus(ctx, action, id, 'FROZEN'),
    resume: (ctx: RequestContext, action: AuditAction, id: string) => setStatus(ctx, action, id, 'ACTIVE'),
    remove,
  };
}

function keyRotatedConcurrently(): ApiError {
  return new ApiError('CONCURRENT_UPDATE', "The agent's key was rotated meanwhile; retry.", { retryAfter: 1 });
}
