import { newId } from '../../shared/domain/ids.js';
import { ApiError } from '../../shared/domain/errors.js';
import type { Clock } from '../../shared/domain/clock.js';
import type { CoreDeps } from '../../shared/domain/ports.js';
import { AGENT_PERMISSIONS, ORGANIZATION_PERMISSIONS, type RequestContext } from '../../shared/domain/tenancy.js';
import type { Wallet } from '../../shared/domain/types.js';
import { walletOf } from '../contracts/money-fixtures.js';

/**
 * What the unit tests of a service over its memory fake share: the core deps, one sandbox
 * organization with an organization key and agent keys, and wallets seeded into the fake's table.
 */
export function serviceWorld(clock: Clock, table: { addWallet(wallet: Wallet): void }) {
  const deps: CoreDeps = {
    clock,
    ids: newId,
    issueKey: () => {
      throw new Error('no keys here');
    },
    limits: { walletsPerEnvironment: 100, sandboxFundingMax: '10000.00' },
    timeScale: 1,
  };
  const organizationId = newId('organization');
  const scope = { organizationId, environment: 'SANDBOX' as const };
  const ctx: RequestContext = {
    principal: {
      kind: 'ORGANIZATION',
      keyId: 'key_admin',
      organizationId,
      environment: 'SANDBOX',
      permissions: [...ORGANIZATION_PERMISSIONS],
      walletId: null,
    },
    actor: { actorType: 'API_KEY', actorId: 'key_admin', ipAddress: '198.51.100.7' },
    requestId: 'req_1',
  };
  /** An agent key scoped to the wallet. */
  const agentCtx = (walletId: string): RequestContext => ({
    ...ctx,
    principal: { ...ctx.principal, kind: 'AGENT', keyId: 'key_agent', permissions: [...AGENT_PERMISSIONS], walletId },
  });
  /** A wallet with this balance in the organization (or in `of`), seeded into the fake: its id. */
  const wallet = (balance: string, overrides: Partial<Wallet> = {}, of = scope) => {
    const made = walletOf(of, balance, overrides);
    table.addWallet(made);
    return made.id;
  };
  return { deps, scope, ctx, agentCtx, wallet };
}

/** The ApiError a call threw (code and details), or 'OK'. */
export async function refusalOf(
  promise: Promise<unknown>,
): Promise<{ code: string; details?: Record<string, unknown> } | 'OK'> {
  try {
    await promise;
    return 'OK';
  } catch (error) {
    if (error instanceof ApiError)
      return { code: error.code, ...(error.details ? { details: error.details as Record<string, unknown> } : {}) };
    throw error;
  }
}
