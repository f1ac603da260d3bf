/** An agent's budget: money moved between the main wallet and the agent wallet, either way, idempotently. */
import Big from 'big.js';
import type { AuditAction } from '../audit/actions.js';
import { scopeOf } from '../access.js';
import type { ChangeOf } from '../change-committer.js';
import { ApiError } from '../errors.js';
import {
  claimOf,
  fingerprintOf,
  postingClaim,
  runIdempotent,
  type IdempotentResponse,
} from '../idempotency/idempotency.js';
import { transferLegs, walletAccount } from '../ledger/posting.js';
import { formatAmount, formatBalance, parseAmount } from '../money.js';
import type { ServiceDeps } from '../ports.js';
import type { RequestContext } from '../tenancy.js';
import { loadAgent, mainWalletOf } from './agent-reads.js';
import type { AgentStore } from './ports.js';

type AgentChange = ChangeOf<AgentStore>;

export function createAgentBudget(deps: ServiceDeps<AgentStore>) {
  const { store, clock, ids } = deps;

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
        const agent = await loadAgent(store, ctx, agentId);
        if (agent.deletedAt) throw new ApiError('WALLET_FROZEN', 'The agent is deleted.', { walletId: agent.id });
        const mainWalletId = await mainWalletOf(store, scope);
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

  return { adjustBudget };
}
