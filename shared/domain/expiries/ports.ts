/**
 * One-time expiries (ARCHITECTURE.md "Events, webhooks, expiries"): a change that starts a clock
 * (a pending approval today; payment links, dispute deadlines and clearing holds later) schedules
 * one message at its expiry; the `expiry` queue worker (shared/workers.ts) handles it with a
 * conditional state change, so a message received twice, late, or after a decision is harmless.
 */
export type ExpiryMessage = { readonly kind: 'approval'; readonly id: string };

export interface ExpiryScheduler {
  /**
   * Schedules `message` into the expiry queue at `at` (ISO 8601). Idempotent per message: scheduling
   * the same expiry twice keeps one schedule.
   */
  schedule(message: ExpiryMessage, at: string): Promise<void>;
}

/** Parses an expiry queue message body (undefined: not an expiry message, nothing to do). */
export function expiryMessageOf(body: string): ExpiryMessage | undefined {
  const parsed = JSON.parse(body) as unknown;
  if (parsed && typeof parsed === 'object' && (parsed as { kind?: unknown }).kind === 'approval' && typeof (parsed as { id?: unknown }).id === 'string') {
    return { kind: 'approval', id: (parsed as { id: string }).id };
  }
  return undefined;
}
