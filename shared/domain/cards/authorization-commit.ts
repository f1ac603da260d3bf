import { auditChange, eventChange } from '../audit/audit.js';
import type { AuditAction } from '../audit/actions.js';
import type { ChangeOf } from '../change-committer.js';
import {
  answerChange,
  claimOf,
  fingerprintOf,
  runIdempotent,
  type IdempotentResponse,
  type KeyClaim,
} from '../idempotency/idempotency.js';
import type { ServiceDeps } from '../ports.js';
import type { Actor, OrganizationScope } from '../tenancy.js';
import { presentAuthorization } from './card-view.js';
import type { CardStore } from './ports.js';
import type { Authorization } from './types.js';

/**
 * What every authorization write shares: the idempotency slot it answers, and the audit entry and
 * event it commits with the record (the authorize, capture, reversal and refund modules use it).
 */

/** The idempotency key's slot an operation answers in its transaction; none without a key. */
export type Slot = { slotId: string; claim: KeyClaim } | undefined;

/** One transaction's changes. */
export type Commit = ChangeOf<CardStore>[];

/** The event types of an authorization's own record. */
export type AuthorizationEventType =
  | 'card.authorization.approved'
  | 'card.authorization.declined'
  | 'card.authorization.captured'
  | 'card.authorization.reversed';

const AUTHORIZATION_RESOURCE = 'card_authorization';

export type AuthorizationCommit = ReturnType<typeof createAuthorizationCommit>;

export function createAuthorizationCommit(deps: ServiceDeps<CardStore>) {
  const { store, clock, ids } = deps;

  /** Runs `execute` once per idempotency key (a retry answers the stored response). */
  async function idempotent(
    scope: OrganizationScope,
    scopeKey: string,
    operation: string,
    params: Record<string, unknown>,
    key: string | undefined,
    execute: (slot: Slot) => Promise<IdempotentResponse>,
  ): Promise<IdempotentResponse> {
    // The key's scope only (callers pass the card): claimOf keeps nothing else of it.
    const claim =
      key === undefined
        ? undefined
        : await claimOf(
            { organizationId: scope.organizationId, environment: scope.environment },
            key,
            fingerprintOf(operation, { ...params, scope: scopeKey }),
          );
    return runIdempotent(store, claim, clock.now(), () => ids('transaction'), {
      execute: (slotId, keyClaim) => execute(keyClaim ? { slotId, claim: keyClaim } : undefined),
    });
  }

  /** The stored answer of the idempotency key, in the same transaction (nothing without a key). */
  const answerOf = (slot: Slot, status: number, body: unknown, now: Date) =>
    slot ? [answerChange(slot.slotId, slot.claim, status, body, now)] : [];

  const auditOf = (
    actor: Actor,
    auth: Authorization,
    action: AuditAction,
    at: string,
    metadata: Record<string, unknown> = {},
  ) =>
    auditChange(
      {
        organizationId: auth.organizationId,
        environment: auth.environment,
        actor,
        action,
        resource: AUTHORIZATION_RESOURCE,
        resourceId: auth.id,
        walletId: auth.walletId,
        metadata: {
          cardId: auth.cardId,
          amount: auth.amount,
          status: auth.status,
          merchant: auth.merchant.name,
          category: auth.merchant.category,
          ...(auth.reason ? { reason: auth.reason } : {}),
          ...metadata,
        },
        createdAt: at,
      },
      ids,
    );

  const eventOf = (auth: Authorization, type: AuthorizationEventType, at: string) =>
    eventChange(
      {
        organizationId: auth.organizationId,
        environment: auth.environment,
        type,
        data: presentAuthorization(auth),
        createdAt: at,
      },
      ids,
    );

  return { idempotent, answerOf, auditOf, eventOf };
}
