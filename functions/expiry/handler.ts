import { container } from '../../shared/runtime/container.js';

/**
 * Scheduled worker (EventBridge rule, every minute; a timer in the local run): expires pending
 * approvals past their expiry, each with a conditional state change, so running twice is harmless.
 */
export async function handler(): Promise<{ expired: number }> {
  let expired = 0;
  for (;;) {
    const batch = await container().services.approvals.expireDue();
    expired += batch;
    if (batch === 0) return { expired };
  }
}
