/** Agent reads: one agent (`get`), the agents of a scope (`list`), and the lookups the other agent commands share. */
import { assertAccessible, scopeOf } from '../access.js';
import { notFound } from '../errors.js';
import type { Policy } from '../policies/policy-types.js';
import type { OrganizationScope, RequestContext } from '../tenancy.js';
import type { ApiKey, Page, PageRequest, Wallet } from '../types.js';
import type { AgentStore } from './ports.js';

export interface AgentDetails {
  wallet: Wallet;
  apiKey: ApiKey | undefined;
  policies: Policy[];
}

/** An AGENT wallet the caller may see; any other wallet answers WALLET_NOT_FOUND. */
export async function loadAgent(store: AgentStore, ctx: RequestContext, agentId: string): Promise<Wallet> {
  const wallet = assertAccessible(ctx.principal, await store.getWallet(agentId), agentId);
  if (wallet.walletType !== 'AGENT') throw notFound('WALLET_NOT_FOUND', agentId);
  return wallet;
}

/** The main wallet of the scope, where an agent's budget comes from and returns to. */
export async function mainWalletOf(store: AgentStore, scope: OrganizationScope): Promise<string> {
  const mainWalletId = await store.getMainWalletId(scope.organizationId, scope.environment);
  if (!mainWalletId) throw new Error(`organization ${scope.organizationId} has no ${scope.environment} main wallet`);
  return mainWalletId;
}

export function createAgentReads(store: AgentStore) {
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

  return { get, list };
}
