import { AUDIT, type AuditAction } from '../audit/actions.js';
import { ApiError } from '../errors.js';
import { canTransition, targetOf } from '../state-table.js';
import type { Actor, RequestContext } from '../tenancy.js';
import type { DisputeKernel } from './dispute-kernel.js';
import { disputeRelease } from './dispute-postings.js';
import { beneficiaryOf, DEADLINE_ACTOR, OUTCOME_TRIGGERS } from './dispute-rules.js';
import { DISPUTE_STATES, type DisputeTrigger } from './dispute-states.js';
import type { DisputeServiceDeps, DisputeStepOutput } from './ports.js';
import type { Dispute, DisputeOutcome, DisputeResolver } from './types.js';

interface Ending {
  actor: Actor;
  resolvedBy: DisputeResolver;
  action: AuditAction;
  note?: string | undefined;
}

/**
 * The end of a dispute: the operator's outcome (`resolve`, from OPEN or RESPONDED at any time) or
 * the deadline's lapse (`runDeadline`, OPEN past `respondBy`: RESOLVED_AGENT, actor SYSTEM). Each is
 * ONE transaction: the transition (conditioned on DISPUTE_STATES, so of a response, a resolution and
 * the deadline racing exactly one wins), the DISPUTE_RESOLUTION posting out of acc_SUSPENSE, both
 * parties' audit entries and `dispute.resolved`.
 */
export function disputeResolution(deps: DisputeServiceDeps, kernel: DisputeKernel) {
  const { store, clock, ids } = deps;

  /**
   * The winner's wallet; when it is closed (its agent deleted), its organization's main wallet of
   * the environment (`creditedWalletId` says which). A FROZEN wallet is credited (money owed to it).
   */
  async function creditedOf(dispute: Dispute, outcome: DisputeOutcome) {
    const beneficiary = beneficiaryOf(dispute, outcome);
    const wallet = await store.getWallet(beneficiary.walletId);
    if (wallet && !wallet.deletedAt) return beneficiary;
    const mainWalletId = await store.getMainWalletId(beneficiary.organizationId, dispute.environment);
    if (!mainWalletId)
      throw new Error(`organization ${beneficiary.organizationId} has no ${dispute.environment} main wallet`);
    return { walletId: mainWalletId, organizationId: beneficiary.organizationId };
  }

  /**
   * A credited wallet closed between the read and the write fails the commit (INVALID_STATE naming
   * it): the operator's call resolves once more from fresh reads (crediting the main wallet); the
   * deadline's step finds the dispute still OPEN and its workflow asks again.
   */
  async function end(dispute: Dispute, trigger: DisputeTrigger, ending: Ending, at: string): Promise<Dispute> {
    const outcome = targetOf(DISPUTE_STATES, trigger) as DisputeOutcome;
    const credited = await creditedOf(dispute, outcome);
    const set: Partial<Dispute> = {
      resolvedBy: ending.resolvedBy,
      ...(ending.note !== undefined ? { resolutionNote: ending.note } : {}),
      resolvedAt: at,
      resolutionTransactionId: ids('transaction'),
      creditedWalletId: credited.walletId,
      updatedAt: at,
    };
    const ended: Dispute = { ...dispute, ...set, status: outcome };
    const metadata = { outcome, resolvedBy: ending.resolvedBy };
    await store.commit([
      { type: 'transitionDispute', disputeId: dispute.id, trigger, set, read: dispute.status },
      disputeRelease(ended, credited, set.resolutionTransactionId!, at),
      kernel.auditOf('INITIATOR', ending.actor, ended, ending.action, at, metadata),
      kernel.auditOf('RESPONDENT', ending.actor, ended, ending.action, at, metadata),
      ...kernel.eventsOf('dispute.resolved', ended, at),
    ]);
    return ended;
  }

  /** The operator's outcome (`service:admin`), from OPEN or RESPONDED, also past `respondBy`. */
  async function resolve(
    ctx: RequestContext,
    action: AuditAction,
    disputeId: string,
    input: { outcome: DisputeOutcome; note?: string | undefined },
    retried?: true,
  ): Promise<Dispute> {
    const dispute = await kernel.read(disputeId);
    const trigger = OUTCOME_TRIGGERS[input.outcome];
    if (!canTransition(DISPUTE_STATES, dispute.status, trigger))
      throw kernel.invalidState(dispute, 'it can not be resolved');
    try {
      const ending = { actor: ctx.actor, resolvedBy: 'OPERATOR' as const, action, note: input.note };
      return await end(dispute, trigger, ending, clock.now().toISOString());
    } catch (error) {
      // The write asks for the status read: a response committed since then fails it, and the
      // resolution is made again from the dispute as stored (its answer and events carry the response).
      if (retried || !(error instanceof ApiError) || error.code !== 'INVALID_STATE') throw error;
      return resolve(ctx, action, disputeId, input, true);
    }
  }

  /** An OPEN dispute past its deadline lapses to RESOLVED_AGENT (actor SYSTEM); the money goes to the initiator. */
  const lapse = (dispute: Dispute, now: Date) =>
    end(
      dispute,
      'lapse',
      { actor: DEADLINE_ACTOR, resolvedBy: 'DEADLINE', action: AUDIT.dispute.resolve },
      now.toISOString(),
    );

  const stepOutput = (dispute: Dispute): DisputeStepOutput =>
    dispute.status === 'OPEN' ? { status: 'OPEN', respondBy: dispute.respondBy } : { status: dispute.status };

  /**
   * The deadline workflow's step (DisputeDeadline): OPEN and due -> lapsed; OPEN and not due ->
   * `{OPEN, respondBy}` (nothing changes); anything else -> its status. A lost race (a response or a
   * resolution committed first) answers the status found after it. An unknown id throws.
   */
  async function runDeadline(disputeId: string, now: Date = clock.now()): Promise<DisputeStepOutput> {
    const dispute = await kernel.read(disputeId);
    if (dispute.status !== 'OPEN' || now.getTime() < Date.parse(dispute.respondBy)) return stepOutput(dispute);
    try {
      return stepOutput(await lapse(dispute, now));
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== 'INVALID_STATE') throw error;
      return stepOutput(await kernel.read(disputeId));
    }
  }

  return { resolve, lapse, runDeadline };
}

export type DisputeResolution = ReturnType<typeof disputeResolution>;
