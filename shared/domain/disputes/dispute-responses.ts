import type { AuditAction } from '../audit/actions.js';
import { ApiError } from '../errors.js';
import type { RequestContext } from '../tenancy.js';
import type { DisputeKernel } from './dispute-kernel.js';
import type { DisputeResolution } from './dispute-resolution.js';
import { auditText } from './dispute-rules.js';
import type { DisputeServiceDeps } from './ports.js';
import type { Dispute } from './types.js';

export interface DisputeResponseInput {
  response: string;
  evidenceUrl?: string | undefined;
}

/**
 * The respondent's answer (OPEN -> RESPONDED): one transaction with its audit entry (in the
 * respondent's organization) and both parties' `dispute.responded`. The initiator gets
 * PERMISSION_DENIED, anyone else DISPUTE_NOT_FOUND. At or after `respondBy` the deadline is the
 * truth: a dispute still OPEN lapses first (as the workflow would), and the answer is INVALID_STATE.
 */
export function disputeResponses(deps: DisputeServiceDeps, kernel: DisputeKernel, resolution: DisputeResolution) {
  const { store, clock } = deps;

  async function respond(
    ctx: RequestContext,
    action: AuditAction,
    disputeId: string,
    input: DisputeResponseInput,
  ): Promise<Dispute> {
    const { dispute, side } = await kernel.load(ctx, disputeId);
    if (side === 'INITIATOR') throw new ApiError('PERMISSION_DENIED', 'Only the respondent can respond.');
    if (dispute.status !== 'OPEN') throw kernel.invalidState(dispute, 'it can not be answered');
    const now = clock.now();
    if (now.getTime() >= Date.parse(dispute.respondBy)) {
      try {
        await resolution.lapse(dispute, now);
      } catch (error) {
        // A resolution or the workflow's lapse came first: the status read next says which.
        if (!(error instanceof ApiError) || error.code !== 'INVALID_STATE') throw error;
      }
      throw kernel.invalidState(await kernel.read(disputeId), 'the deadline passed');
    }
    const at = now.toISOString();
    const set: Partial<Dispute> = {
      response: input.response,
      ...(input.evidenceUrl !== undefined ? { evidenceUrl: input.evidenceUrl } : {}),
      respondedAt: at,
      updatedAt: at,
    };
    const responded: Dispute = { ...dispute, ...set, status: 'RESPONDED' };
    await store.commit([
      { type: 'transitionDispute', disputeId: dispute.id, trigger: 'respond', set },
      kernel.auditOf('RESPONDENT', ctx.actor, responded, action, at, {
        response: auditText(input.response),
        evidenceUrl: input.evidenceUrl ?? null,
      }),
      ...kernel.eventsOf('dispute.responded', responded, at),
    ]);
    return responded;
  }

  return { respond };
}
