import type { AuditAction } from '../audit/actions.js';
import { ApiError } from '../errors.js';
import type { ServiceDeps } from '../ports.js';
import type { Actor, Environment } from '../tenancy.js';
import { scaledMs } from '../transfers/transfer-rules.js';
import type { ApprovedAuthorization } from './authorization-settlement.js';
import type { CardStore } from './ports.js';
import { domainLog as log } from '../telemetry.js';
import type { Authorization } from './types.js';

/**
 * The expiry of APPROVED authorizations neither captured nor reversed in time: when one expires,
 * and the sweep (the `expiry-sweep` worker) that reverses those past it.
 */

/**
 * How long an APPROVED authorization holds the wallet's money if it is neither captured nor
 * reversed: 7 days, as issuers expire authorizations (docs/api.md "Cards: authorization expiry").
 */
export const AUTHORIZATION_EXPIRY_MS = 7 * 24 * 3600_000;
/** Authorizations reversed per `expireDue` call (the sweep calls again while a full batch came back). */
export const AUTHORIZATION_EXPIRY_BATCH_SIZE = 25;
/** The expiry sweep reverses as the system (decisions.md section 9). */
export const AUTHORIZATION_EXPIRY_ACTOR: Actor = {
  actorType: 'SYSTEM',
  actorId: 'authorization-expiry',
  ipAddress: '0.0.0.0',
};

/** How long an authorization whose expiry failed waits before the sweep tries it again (sandbox: scaled). */
const EXPIRY_RETRY_MS = 5 * 60_000;

/** When an authorization approved at `createdAt` expires: 7 days later; in the sandbox the 7 days divided by TIME_SCALE, never less than 1 s. */
export function authorizationExpiresAt(environment: Environment, createdAt: Date, timeScale: number): string {
  return new Date(
    createdAt.getTime() + Math.max(1000, scaledMs(environment, AUTHORIZATION_EXPIRY_MS, timeScale)),
  ).toISOString();
}

/** The reversal the sweep applies (authorization-reversal.ts), `expired` set. */
type ReverseApproved = (
  action: AuditAction,
  auth: ApprovedAuthorization,
  actor: Actor,
  expired: boolean,
) => Promise<Authorization>;

export function createExpiry(deps: ServiceDeps<CardStore>, reverseApproved: ReverseApproved) {
  const { store, clock, timeScale } = deps;

  /**
   * The expiry (the `expiry-sweep` worker): APPROVED authorizations past their `expiresAt` (neither
   * captured nor reversed in time; our processor sends no reversal notice yet) are reversed by the
   * same reversal as the helper's, as the system, `expiredAt` set. Oldest first, at most
   * AUTHORIZATION_EXPIRY_BATCH_SIZE; returns how many were listed (a full batch: call again). One
   * captured or reversed meanwhile (the index lags, or a race) is left alone: the reversal's state
   * condition refuses it. Any other failure is logged; the authorization stays listed for the next run.
   * `action`: the audit action of the reversal, named by the worker.
   */
  return async function expireDue(action: AuditAction): Promise<number> {
    const now = clock.now();
    const due = await store.listDueAuthorizations(now, AUTHORIZATION_EXPIRY_BATCH_SIZE);
    for (const listed of due) {
      try {
        const auth = await store.getAuthorization(listed.id);
        if (auth?.status !== 'APPROVED' || !auth.holdId || !auth.expiresAt || auth.expiresAt >= now.toISOString())
          continue;
        await reverseApproved(action, auth as ApprovedAuthorization, AUTHORIZATION_EXPIRY_ACTOR, true);
      } catch (error) {
        // A race (captured or reversed meanwhile) is no failure; anything else is logged and the
        // authorization moved back in the queue, so a record that keeps failing never blocks the batch.
        const current = await store.getAuthorization(listed.id).catch(() => undefined);
        if (current && current.status !== 'APPROVED') continue;
        // A state conflict on a record still read APPROVED is a read behind a race: moved back quietly.
        if (!(error instanceof ApiError && error.code === 'INVALID_STATE'))
          log.error(`expiring authorization ${listed.id} failed; it is looked at again later`, error);
        const retryAt = new Date(
          clock.now().getTime() + Math.max(1000, scaledMs(listed.environment, EXPIRY_RETRY_MS, timeScale)),
        ).toISOString();
        await store
          .commit([{ type: 'deferAuthorizationExpiry', authorizationId: listed.id, retryAt }])
          .catch(() => undefined);
      }
    }
    return due.length;
  };
}
