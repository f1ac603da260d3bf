import type { ScheduledEvent } from 'aws-lambda';
import { core } from '../../shared/runtime/core.js';
import { approvalService } from '../../shared/runtime/services.js';

let approvals: ReturnType<typeof approvalService> | undefined;

/**
 * Scheduled worker, declared in shared/workers.ts (EventBridge rule every EXPIRY_SWEEP_RATE_MINUTES
 * in AWS; every 5 s in the local run, bin/local/workers.ts): the safety net of the one-time expiry
 * schedules (functions/expiry). Each approval's expiry is scheduled after its payment's commit; if
 * that failed (logged), this sweep expires the approval. Each expiry is a conditional state change,
 * so a sweep racing the schedule's message (or another sweep) is harmless. The event carries
 * nothing it needs: every run expires everything due.
 */
export async function handler(_event?: ScheduledEvent): Promise<{ expired: number }> {
  let expired = 0;
  for (;;) {
    approvals ??= approvalService(core());
    const batch = await approvals.expireDue();
    expired += batch;
    if (batch === 0) return { expired };
  }
}
