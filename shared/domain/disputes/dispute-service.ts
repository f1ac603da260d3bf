import { disputeKernel } from './dispute-kernel.js';
import { disputeOpening } from './dispute-opening.js';
import { disputeReads } from './dispute-reads.js';
import { disputeResolution } from './dispute-resolution.js';
import { disputeResponses } from './dispute-responses.js';
import type { DisputeDeadline, DisputeServiceDeps } from './ports.js';

export type { OpenDisputeInput } from './dispute-opening.js';
export type { DisputeResponseInput } from './dispute-responses.js';

/**
 * Disputes (interface-spec 2.5, 3.2, 4.4; decisions.md section 7; docs/api.md "Disputes"), by job:
 * dispute-opening.ts (open: checks, hold into acc_SUSPENSE, the deadline workflow's start),
 * dispute-reads.ts (get, list), dispute-responses.ts (the respondent's answer),
 * dispute-resolution.ts (the operator's outcome and the deadline's lapse, each paying out of
 * suspense). Mutating methods take (ctx, action, ...); `runDeadline` is the workflow's step.
 */
export function createDisputeService(deps: DisputeServiceDeps) {
  const kernel = disputeKernel(deps);
  const { open } = disputeOpening(deps, kernel);
  const { get, list } = disputeReads(deps, kernel);
  const resolution = disputeResolution(deps, kernel);
  const { respond } = disputeResponses(deps, kernel, resolution);
  const deadline: DisputeDeadline = { runDeadline: resolution.runDeadline };
  return { open, get, list, respond, resolve: resolution.resolve, ...deadline };
}

export type DisputeService = ReturnType<typeof createDisputeService>;
