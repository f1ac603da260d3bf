import type { Context, ScheduledEvent } from 'aws-lambda';
import { core } from '../../shared/runtime/core.js';
import { AUDIT } from '../../shared/domain/audit/actions.js';
import { AUTHORIZATION_EXPIRY_BATCH_SIZE } from '../../shared/domain/cards/authorization-engine.js';
import { PAYMENT_LINK_EXPIRY_BATCH_SIZE } from '../../shared/domain/payment-links/payment-link-lifecycle.js';
import { RECONCILE_BATCH_SIZE } from '../../shared/domain/transfers/transfer-steps-service.js';
import { approvalService } from '../../shared/runtime/services/approvals.js';
import { cardAuthorizationService } from '../../shared/runtime/services/cards.js';
import { paymentLinkExpiryService } from '../../shared/runtime/services/payment-link-expiry.js';
import { observedWorker } from '../../shared/observability/invocation.js';
import { transferStepsService } from '../../shared/runtime/services/transfer-steps.js';

let approvals: ReturnType<typeof approvalService> | undefined;
let transfers: ReturnType<typeof transferStepsService> | undefined;
let cards: ReturnType<typeof cardAuthorizationService> | undefined;
let paymentLinks: ReturnType<typeof paymentLinkExpiryService> | undefined;

/** Rounds of transfer reconciliation per run (each handles up to RECONCILE_BATCH_SIZE; the rest waits for the next run). */
const MAX_RECONCILE_ROUNDS = 20;
/** Rounds of authorization expiry per run (each up to AUTHORIZATION_EXPIRY_BATCH_SIZE; the rest waits for the next run). */
const MAX_AUTHORIZATION_EXPIRY_ROUNDS = 20;
/** Rounds of payment link expiry per run (each up to PAYMENT_LINK_EXPIRY_BATCH_SIZE; the rest waits for the next run). */
const MAX_LINK_EXPIRY_ROUNDS = 20;
/** Time left at which a duty stops starting rounds, so the later duties of the run get their turn (and the run ends in time). */
const STOP_BEFORE_TIMEOUT_MS = 5_000;

/**
 * Scheduled worker, declared in shared/workers.ts (EventBridge rule every EXPIRY_SWEEP_RATE_MINUTES
 * in AWS; every 5 s in the local run, bin/local/workers.ts): the safety net of the one-time expiry
 * schedules (functions/expiry). Each approval's expiry is scheduled after its payment's commit; if
 * that failed (logged), this sweep expires the approval. Each expiry is a conditional state change,
 * so a sweep racing the schedule's message (or another sweep) is harmless. The event carries
 * nothing it needs: every run expires everything due. It also reconciles transfers whose work is
 * overdue (a workflow that never started or died, a lost clearing schedule): the same idempotent
 * steps, so racing the workflow is harmless too. And it reverses APPROVED card authorizations
 * past their expiry (7 days; no processor reversal notice yet), by the reversal's own state
 * condition: one captured or reversed meanwhile is left alone. A reversal needs the table only
 * (the card service without an issuer). And it expires ACTIVE and PENDING_APPROVAL payment links
 * past their `expiresAt` whose one-time schedule did not (the hold released; `expire` is idempotent).
 */
async function sweep(
  _event?: ScheduledEvent,
  context?: Pick<Context, 'getRemainingTimeInMillis'>,
): Promise<{ expired: number; reconciled: number; authorizationsExpired: number; linksExpired: number }> {
  // Each duty on its own: a failure of one never skips the others; the run then fails (Lambda's
  // retries and error metrics see it) after all ran. Each stops starting rounds when its share of
  // the run's time is used (the later duties are never starved); the next run goes on.
  const started = Date.now();
  const budget = context?.getRemainingTimeInMillis?.() ?? Number.POSITIVE_INFINITY;
  const failures: unknown[] = [];

  /** Runs `round` until it reports less than a full batch, `maxRounds` ran, or the duty's time share is used. */
  async function drain(
    round: () => Promise<number>,
    more: (count: number) => boolean,
    maxRounds: number,
    share: number,
  ): Promise<number> {
    let total = 0;
    try {
      for (let n = 0; n < maxRounds; n++) {
        const elapsed = Date.now() - started;
        if (budget - elapsed <= STOP_BEFORE_TIMEOUT_MS || elapsed >= budget * share) break;
        const count = await round();
        total += count;
        if (!more(count)) break;
      }
    } catch (error) {
      failures.push(error);
    }
    return total;
  }

  // Pending approvals past their expiry (a count of those expired: runs until none is left).
  const expired = await drain(
    () => (approvals ??= approvalService(core())).expireDue(AUDIT.approval.expire),
    (count) => count > 0,
    Number.POSITIVE_INFINITY,
    0.3,
  );
  // Transfers whose work is overdue: the same steps as the workflow and the clearing expiry.
  const reconciled = await drain(
    () => (transfers ??= transferStepsService(core(), { expiries: null })).reconcileDue(),
    (count) => count >= RECONCILE_BATCH_SIZE,
    MAX_RECONCILE_ROUNDS,
    0.6,
  );
  // APPROVED card authorizations past their expiresAt: reversed (the hold voided, the spend given back).
  const authorizationsExpired = await drain(
    () => (cards ??= cardAuthorizationService(core())).expireDue(AUDIT.card.reverse),
    (count) => count >= AUTHORIZATION_EXPIRY_BATCH_SIZE,
    MAX_AUTHORIZATION_EXPIRY_ROUNDS,
    0.8,
  );
  // ACTIVE and PENDING_APPROVAL payment links past expiresAt (their schedule missed): EXPIRED, the hold released.
  const linksExpired = await drain(
    () => (paymentLinks ??= paymentLinkExpiryService(core())).expireDue(AUDIT.paymentLink.expire),
    (count) => count >= PAYMENT_LINK_EXPIRY_BATCH_SIZE,
    MAX_LINK_EXPIRY_ROUNDS,
    1,
  );
  if (failures.length > 0)
    throw new AggregateError(
      failures,
      `expiry sweep: ${failures.length} duty failed (expired ${expired}, reconciled ${reconciled}, authorizations expired ${authorizationsExpired}, links listed ${linksExpired})`,
    );
  return { expired, reconciled, authorizationsExpired, linksExpired };
}

export const handler = observedWorker('expiry-sweep', sweep);
