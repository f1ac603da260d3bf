/** Agent key rotation: the agent's key revoked and a new one with the same permissions and expiry issued, in one transaction. */
import type { AuditAction } from '../audit/actions.js';
import { scopeOf } from '../access.js';
import { API_KEY_STATES } from '../api-keys/api-key-states.js';
import { mintKey } from '../api-keys/grants.js';
import { auditChange } from '../audit/audit.js';
import { ApiError } from '../errors.js';
import type { ServiceDeps } from '../ports.js';
import { canTransition } from '../state-table.js';
import type { RequestContext } from '../tenancy.js';
import { loadAgent } from './agent-reads.js';
import type { AgentStore } from './ports.js';

export function createAgentKeyRotation(deps: ServiceDeps<AgentStore>) {
  const { store, clock, ids } = deps;

  /**
   * Old key revoked and new key issued in one transaction: there is always exactly one valid key.
   * The new key holds the old one's permissions and expiry (never, if it had none), so the caller
   * must hold them too and not expire before it (grants.ts: else 403 PERMISSION_DENIED). A
   * key no longer ACTIVE (an admin revoked it) is never replaced: a revocation is final
   * (409 INVALID_STATE; docs/api.md "Agents").
   */
  async function rotateKey(ctx: RequestContext, action: AuditAction, agentId: string) {
    const scope = scopeOf(ctx.principal);
    const agent = await loadAgent(store, ctx, agentId);
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

  return { rotateKey };
}
