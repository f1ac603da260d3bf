import type { ScheduledEvent } from 'aws-lambda';
import { core } from '../../shared/runtime/core.js';
import { approvalService } from '../../shared/runtime/services.js';

let approvals: ReturnType<typeof approvalService> | undefined;

/**
 * Scheduled worker, declared in shared/workers.ts (EventBridge rule every minute in AWS; every 5 s
 * in the local run, bin/local/workers.ts): expires pending approvals past their expiry, each with a
 * conditional state change, so running twice (or two runs at once) is harmless. The event carries
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
