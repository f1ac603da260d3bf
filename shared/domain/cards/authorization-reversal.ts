import Big from 'big.js';
import type { AuditAction } from '../audit/actions.js';
import type { ServiceDeps } from '../ports.js';
import type { Actor, RequestContext } from '../tenancy.js';
import type { AuthorizationCommit } from './authorization-commit.js';
import { authorizationVoid } from './authorization-postings.js';
import { loadApproved, settleCard, type ApprovedAuthorization } from './authorization-settlement.js';
import type { CardStore } from './ports.js';
import type { Authorization } from './types.js';

/** The reversal of an APPROVED authorization (the sandbox helper's, and the expiry's): the hold given back. */
export function createReversal(deps: ServiceDeps<CardStore>, { auditOf, eventOf }: AuthorizationCommit) {
  const { store, clock, ids } = deps;

  /**
   * The reversal (the helper's and the expiry's): the hold voided, the card spend given back, a
   * single-use card freed, in one transaction conditioned on the authorization still APPROVED
   * (INVALID_STATE if it was captured or reversed meanwhile). `expired`: by the expiry sweep.
   */
  async function reverseApproved(
    action: AuditAction,
    auth: ApprovedAuthorization,
    actor: Actor,
    expired = false,
  ): Promise<Authorization> {
    const now = clock.now();
    const at = now.toISOString();
    const after: Authorization = { ...auth, status: 'REVERSED', reversedAt: at, ...(expired ? { expiredAt: at } : {}) };
    const release = settleCard(auth, undefined, new Big(auth.amount), now, true).change;
    await store.commit([
      authorizationVoid(auth, ids('transaction'), at),
      {
        type: 'transitionAuthorization',
        authorizationId: auth.id,
        trigger: 'reverse',
        set: { reversedAt: at, ...(expired ? { expiredAt: at } : {}) },
      },
      ...(release ? [release] : []),
      eventOf(after, 'card.authorization.reversed', at),
      auditOf(actor, after, action, at, expired ? { expired: true } : {}),
    ]);
    return after;
  }

  /** Reverses an APPROVED authorization: the whole hold released, its card spend given back. */
  async function reverse(ctx: RequestContext, action: AuditAction, authorizationId: string): Promise<Authorization> {
    return reverseApproved(action, await loadApproved(store, ctx, authorizationId, 'reverse'), ctx.actor);
  }

  return { reverseApproved, reverse };
}
