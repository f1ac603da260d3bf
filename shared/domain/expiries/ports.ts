/**
 * One-time expiries (ARCHITECTURE.md "Events, webhooks, expiries"): a change that starts a clock
 * (a pending approval, the clearing of an ACH deposit; payment links and dispute deadlines later) schedules
 * one message at its expiry; the `expiry` queue worker (shared/workers.ts) handles it with a
 * conditional state change, so a message received twice, late, or after a decision is harmless.
 */
export const EXPIRY_KINDS = [
  'approval',
  'clearing',
  'invoiceSettlement',
  'invoiceRecurring',
  'invoiceRetry',
  'paymentLink',
] as const;
/**
 * `approval`: a pending approval's expiry; `clearing`: the end of an ACH deposit's clearing (a transfer id);
 * `invoiceSettlement`: a bank debit of an invoice settles (an invoice id); `invoiceRecurring`: run n of a
 * recurring charge (`<first invoice id>.<n>`); `invoiceRetry`: retry n of a declined charge (`<invoice id>.<n>`);
 * `paymentLink`: a payment link's `expiresAt` (a link id).
 */
export type ExpiryMessage = { readonly kind: (typeof EXPIRY_KINDS)[number]; readonly id: string };

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
  const { kind, id } = (parsed && typeof parsed === 'object' ? parsed : {}) as { kind?: unknown; id?: unknown };
  if ((EXPIRY_KINDS as readonly unknown[]).includes(kind) && typeof id === 'string')
    return { kind: kind as ExpiryMessage['kind'], id };
  return undefined;
}
