import { scopeOf } from '../access.js';
import type { AuditAction } from '../audit/actions.js';
import { auditChange, eventChange } from '../audit/audit.js';
import type { AuditChange } from '../audit/ports.js';
import { ApiError, notFound } from '../errors.js';
import type { EmittedEventName } from '../event-names.js';
import type { Actor, RequestContext } from '../tenancy.js';
import { sideOf, type DisputeSide } from './dispute-rules.js';
import { presentDispute } from './dispute-view.js';
import type { DisputeServiceDeps } from './ports.js';
import type { Dispute } from './types.js';

type DisputeEventName = Extract<EmittedEventName, `dispute.${string}`>;

/** The organization and wallet of one side of a dispute. */
export const partyOf = (dispute: Dispute, side: DisputeSide) =>
  side === 'INITIATOR'
    ? { organizationId: dispute.organizationId, walletId: dispute.payerWalletId }
    : { organizationId: dispute.respondentOrgId, walletId: dispute.receivingWalletId };

/**
 * What every part of the dispute service shares: a dispute as a caller may see it, and the audit
 * entries and events each transaction writes (for both parties where money moved in both).
 */
export function disputeKernel(deps: DisputeServiceDeps) {
  const { store, ids } = deps;

  /**
   * A dispute the caller is a party of (an agent key: its wallet is its side's), with that side;
   * anyone else gets DISPUTE_NOT_FOUND, a party's key of the other environment ENVIRONMENT_MISMATCH.
   */
  async function load(ctx: RequestContext, disputeId: string): Promise<{ dispute: Dispute; side: DisputeSide }> {
    const scope = scopeOf(ctx.principal);
    const dispute = await store.getDispute(disputeId);
    const side = dispute ? sideOf(ctx.principal, dispute) : undefined;
    if (!dispute || !side) throw notFound('DISPUTE_NOT_FOUND', disputeId);
    if (dispute.environment !== scope.environment) throw new ApiError('ENVIRONMENT_MISMATCH');
    return { dispute, side };
  }

  /** An unknown dispute (the operator's resolve, the deadline). */
  async function read(disputeId: string): Promise<Dispute> {
    const dispute = await store.getDispute(disputeId);
    if (!dispute) throw notFound('DISPUTE_NOT_FOUND', disputeId);
    return dispute;
  }

  const invalidState = (dispute: Pick<Dispute, 'status'>, what: string) =>
    new ApiError('INVALID_STATE', `The dispute is ${dispute.status}; ${what}.`, { status: dispute.status });

  /** One side's audit entry: in its organization, about its wallet; never the other side's key or address. */
  const auditOf = (
    side: DisputeSide,
    actor: Actor,
    dispute: Dispute,
    action: AuditAction,
    at: string,
    metadata: Record<string, unknown> = {},
  ): AuditChange => {
    const party = partyOf(dispute, side);
    return auditChange(
      {
        organizationId: party.organizationId,
        environment: dispute.environment,
        actor,
        action,
        resource: 'dispute',
        resourceId: dispute.id,
        walletId: party.walletId,
        metadata: {
          transactionId: dispute.transactionId,
          amount: dispute.amount,
          currency: dispute.currency,
          type: dispute.type,
          status: dispute.status,
          ...metadata,
        },
        createdAt: at,
      },
      ids,
    );
  };

  /** The event, once per party (each organization's own copy). */
  const eventsOf = (type: DisputeEventName, dispute: Dispute, at: string): AuditChange[] =>
    [dispute.organizationId, dispute.respondentOrgId].map((organizationId) =>
      eventChange(
        { organizationId, environment: dispute.environment, type, data: presentDispute(dispute), createdAt: at },
        ids,
      ),
    );

  return { load, read, invalidState, auditOf, eventsOf };
}

export type DisputeKernel = ReturnType<typeof disputeKernel>;
