import type { DisputeStatus, Dispute } from './types.js';

/**
 * The deadline workflow (lib/workflows/dispute-workflow.ts), started once per dispute right after
 * its creation committed, named after the dispute id, with `{disputeId, respondBy}` as input.
 * Starting it twice is harmless (one execution per name).
 */
export interface DisputeWorkflows {
  start(dispute: Pick<Dispute, 'id' | 'respondBy'>): Promise<void>;
}

/** The workflow's one step: the `dispute-steps` worker's input. */
export interface DisputeStepInput {
  step: 'deadline';
  disputeId: string;
}

/**
 * Its answer: the dispute's status after the step. OPEN with `respondBy` means the deadline has not
 * come yet (the step ran early): the workflow waits until `respondBy` and asks again. Any other
 * status ends the workflow (the step resolved it RESOLVED_AGENT, or a response or resolution came first).
 */
export interface DisputeStepOutput {
  status: DisputeStatus;
  respondBy?: string;
}

/** What the dispute-steps worker calls (the disputes service implements it). */
export interface DisputeDeadline {
  /**
   * At or after `respondBy`, an OPEN dispute lapses to RESOLVED_AGENT (actor SYSTEM), its money paid
   * to the initiator's wallet in the same transaction; otherwise nothing changes. Idempotent: a dispute
   * found RESPONDED or ended answers its status. An unknown id throws (a bug: the execution fails).
   */
  runDeadline(disputeId: string, now?: Date): Promise<DisputeStepOutput>;
}
