import Big from 'big.js';
import { scopeOf } from '../access.js';
import type { AuditAction } from '../audit/actions.js';
import { auditChange, eventChange } from '../audit/audit.js';
import type { ChangeOf } from '../change-committer.js';
import { ApiError } from '../errors.js';
import {
  answerChange,
  claimOf,
  fingerprintOf,
  runIdempotent,
  type IdempotentResponse,
  type KeyClaim,
  RESERVED_KEY_PREFIX,
} from '../idempotency/idempotency.js';
import { formatAmount, parseAmount } from '../money.js';
import type { ServiceDeps } from '../ports.js';
import { canTransition } from '../state-table.js';
import type { Actor, Environment, OrganizationScope, RequestContext } from '../tenancy.js';
import { scaledMs } from '../transfers/transfer-rules.js';
import { accessibleAuthorization, accessibleCard } from './access.js';
import { decideAuthorization, declineOfCommitFailure } from './authorization-decision.js';
import { authorizationCapture, authorizationHold, authorizationVoid, cardRefund } from './authorization-postings.js';
import { isLiveKey } from './card-rules.js';
import { AUTHORIZATION_STATES } from './card-states.js';
import { presentAuthorization, presentCard, type AuthorizationView, type CardRefundView } from './card-view.js';
import type { CardChange, CardStore } from './ports.js';
import type { Authorization, Card, DeclineReason, Merchant } from './types.js';

export interface AuthorizationRequest {
  amount: string;
  merchant: Merchant;
}

/**
 * A decline only the card network endpoint answers, with no authorization record: the card is of
 * the other environment than the endpoint's (a sandbox card at the live endpoint, or the reverse).
 */
export const ENVIRONMENT_MISMATCH_DECLINE = 'environment_mismatch';

/** What the card network is told: approve or decline, and the record that keeps the decision. */
export interface NetworkDecision {
  approved: boolean;
  authorizationId?: string;
  reason?: DeclineReason | typeof ENVIRONMENT_MISMATCH_DECLINE;
}

type Slot = { slotId: string; claim: KeyClaim } | undefined;

/** The card network acts as the system, not as a key (decisions.md section 9: scheduled and automatic actions are SYSTEM). */
export const CARD_NETWORK_ACTOR: Actor = { actorType: 'SYSTEM', actorId: 'card-network', ipAddress: '0.0.0.0' };

const AUTHORIZATION_RESOURCE = 'card_authorization';
/** Decisions made again when the card changed between the read and the commit (a freeze, new limits). */
const MAX_DECISION_ATTEMPTS = 3;

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

/** When an authorization approved at `createdAt` expires: 7 days later; in the sandbox the 7 days divided by TIME_SCALE, never less than 1 s. */
/** How long an authorization whose expiry failed waits before the sweep tries it again (sandbox: scaled). */
const EXPIRY_RETRY_MS = 5 * 60_000;

export function authorizationExpiresAt(environment: Environment, createdAt: Date, timeScale: number): string {
  return new Date(
    createdAt.getTime() + Math.max(1000, scaledMs(environment, AUTHORIZATION_EXPIRY_MS, timeScale)),
  ).toISOString();
}

/**
 * The authorization engine: the real-time decision (authorization-decision.ts) committed as one
 * transaction with its hold, and the capture, reversal and refund that follow. The card network's
 * function (functions/card-network) and the sandbox test helpers call the same code.
 */
export function createAuthorizationEngine(deps: ServiceDeps<CardStore>) {
  const { store, clock, ids, timeScale } = deps;

  async function idempotent(
    scope: OrganizationScope,
    scopeKey: string,
    operation: string,
    params: Record<string, unknown>,
    key: string | undefined,
    execute: (slot: Slot) => Promise<IdempotentResponse>,
  ): Promise<IdempotentResponse> {
    // The key's scope only (callers pass the card): claimOf keeps nothing else of it.
    const claim =
      key === undefined
        ? undefined
        : await claimOf(
            { organizationId: scope.organizationId, environment: scope.environment },
            key,
            fingerprintOf(operation, { ...params, scope: scopeKey }),
          );
    return runIdempotent(store, claim, clock.now(), () => ids('transaction'), {
      execute: (slotId, keyClaim) => execute(keyClaim ? { slotId, claim: keyClaim } : undefined),
    });
  }

  const answerOf = (slot: Slot, status: number, body: unknown, now: Date) =>
    slot ? [answerChange(slot.slotId, slot.claim, status, body, now)] : [];

  const auditOf = (
    actor: Actor,
    auth: Authorization,
    action: AuditAction,
    at: string,
    metadata: Record<string, unknown> = {},
  ) =>
    auditChange(
      {
        organizationId: auth.organizationId,
        environment: auth.environment,
        actor,
        action,
        resource: AUTHORIZATION_RESOURCE,
        resourceId: auth.id,
        walletId: auth.walletId,
        metadata: {
          cardId: auth.cardId,
          amount: auth.amount,
          status: auth.status,
          merchant: auth.merchant.name,
          category: auth.merchant.category,
          ...(auth.reason ? { reason: auth.reason } : {}),
          ...metadata,
        },
        createdAt: at,
      },
      ids,
    );

  const eventOf = (
    auth: Authorization,
    type:
      | 'card.authorization.approved'
      | 'card.authorization.declined'
      | 'card.authorization.captured'
      | 'card.authorization.reversed',
    at: string,
  ) =>
    eventChange(
      {
        organizationId: auth.organizationId,
        environment: auth.environment,
        type,
        data: presentAuthorization(auth),
        createdAt: at,
      },
      ids,
    );

  type Commit = ChangeOf<CardStore>[];

  // ---- The decision -----------------------------------------------------------------------------

  /** Stores a decline: the record, its event and audit entry (no money moves). */
  async function declined(
    action: AuditAction,
    base: Authorization,
    reason: DeclineReason,
    actor: Actor,
    slot: Slot,
    now: Date,
  ): Promise<IdempotentResponse> {
    const auth: Authorization = { ...base, status: 'DECLINED', reason };
    const at = now.toISOString();
    const body = presentAuthorization(auth);
    await store.commit([
      { type: 'putAuthorization', authorization: auth },
      eventOf(auth, 'card.authorization.declined', at),
      auditOf(actor, auth, action, at),
      ...answerOf(slot, 201, body, now),
    ]);
    return { status: 201, body, replayed: false };
  }

  /**
   * Decides and commits: approved, the hold, the card's spend, the record, its event and audit entry
   * in one transaction; declined (by the rules, or by a condition that failed at commit because a
   * concurrent change got there first), the declined record.
   */
  async function decide(
    action: AuditAction,
    card: Card,
    amount: Big,
    merchant: Merchant,
    actor: Actor,
    slot: Slot,
    idempotencyKey: string | undefined,
    attempt = 1,
  ): Promise<IdempotentResponse> {
    const now = clock.now();
    const at = now.toISOString();
    const snapshot = await store.getWalletSnapshot(card.walletId);
    const base: Authorization = {
      id: ids('authorization'),
      organizationId: card.organizationId,
      environment: card.environment,
      cardId: card.id,
      walletId: card.walletId,
      amount: formatAmount(amount),
      capturedAmount: '0.00',
      refundedAmount: '0.00',
      status: 'APPROVED',
      merchant: {
        name: merchant.name,
        category: merchant.category.toLowerCase(),
        ...(merchant.country ? { country: merchant.country.toUpperCase() } : {}),
      },
      createdAt: at,
      ...(idempotencyKey !== undefined ? { idempotencyKey } : {}),
    };
    const decision = decideAuthorization({
      card,
      snapshot: snapshot?.wallet.environment === card.environment ? snapshot : undefined,
      amount,
      merchant: base.merchant,
      at: now,
    });
    if (!decision.approved) return declined(action, base, decision.reason, actor, slot, now);
    const holdId = ids('transaction');
    const singleUse = card.type === 'SINGLE_USE';
    const auth: Authorization = {
      ...base,
      holdId,
      spendKeys: decision.cardSpend.intervals.map(({ interval, key }) => ({ interval, key })),
      ...(singleUse ? { usesCard: true } : {}),
      // On the expiry index (GSI4) until captured or reversed; a decline never is.
      expiresAt: authorizationExpiresAt(card.environment, now, timeScale),
    };
    const body = presentAuthorization(auth);
    try {
      await store.commit([
        authorizationHold(auth, holdId, amount, at, decision.walletSpend),
        { type: 'countCardSpend', spend: decision.cardSpend, ...(singleUse ? { usedBy: auth.id } : {}) },
        { type: 'putAuthorization', authorization: auth },
        eventOf(auth, 'card.authorization.approved', at),
        auditOf(actor, auth, action, at),
        ...answerOf(slot, 201, body, now),
      ]);
    } catch (error) {
      const reason = declineOfCommitFailure(error);
      if (reason) return declined(action, base, reason, actor, slot, now);
      // The card's status or limits changed between the read and the commit: decide again on the card as it is now.
      const fresh =
        error instanceof ApiError && error.code === 'CONCURRENT_UPDATE' && attempt < MAX_DECISION_ATTEMPTS
          ? await store.getCard(card.id)
          : undefined;
      if (!fresh) throw error;
      return decide(action, fresh, amount, merchant, actor, slot, idempotencyKey, attempt + 1);
    }
    return { status: 201, body, replayed: false };
  }

  /** Sandbox test helper: the network's request for a card of the caller's organization. */
  async function authorize(
    ctx: RequestContext,
    action: AuditAction,
    cardId: string,
    input: AuthorizationRequest,
    idempotencyKey?: string,
  ): Promise<IdempotentResponse> {
    const card = accessibleCard(ctx, await store.getCard(cardId), cardId);
    const amount = parseAmount(input.amount, { allowNumber: false });
    const params = { cardId, amount: amount.toFixed(), merchant: input.merchant };
    return idempotent(
      card,
      ctx.principal.walletId ?? 'organization',
      'card.authorize',
      params,
      idempotencyKey,
      (slot) => decide(action, card, amount, input.merchant, ctx.actor, slot, idempotencyKey),
    );
  }

  /**
   * The card network's real-time request (functions/card-network). `networkId` is the processor's
   * id of the request: a retry of the same request answers the first decision. An unknown card is
   * declined without a record (there is no wallet to record it against); so is a card of another
   * environment than the endpoint's (`environment_mismatch`: the request is not that card's
   * network, so nothing is written in the card's environment). `action`: the audit action the
   * card network function declares (shared/card-network/function.ts).
   */
  async function authorizeForNetwork(
    action: AuditAction,
    request: AuthorizationRequest & { cardId: string; networkId: string },
    environment: Environment,
  ): Promise<NetworkDecision> {
    const card = await store.getCard(request.cardId);
    if (!card) return { approved: false, reason: 'card_cancelled' };
    if (card.environment !== environment) return { approved: false, reason: ENVIRONMENT_MISMATCH_DECLINE };
    const amount = parseAmount(request.amount, { allowNumber: false });
    const key = `${RESERVED_KEY_PREFIX}${request.networkId}`;
    const params = { cardId: card.id, amount: amount.toFixed(), merchant: request.merchant };
    const response = await idempotent(card, 'network', 'card.authorize', params, key, (slot) =>
      decide(action, card, amount, request.merchant, CARD_NETWORK_ACTOR, slot, key),
    );
    const view = response.body as AuthorizationView;
    return {
      approved: view.status === 'APPROVED',
      authorizationId: view.id,
      ...(view.reason ? { reason: view.reason } : {}),
    };
  }

  // ---- After the decision -----------------------------------------------------------------------

  async function loadApproved(
    ctx: RequestContext,
    authorizationId: string,
    trigger: 'capture' | 'reverse',
  ): Promise<Authorization & { holdId: string }> {
    const auth = accessibleAuthorization(ctx, await store.getAuthorization(authorizationId), authorizationId);
    if (auth.status === 'DECLINED' || !canTransition(AUTHORIZATION_STATES, auth.status, trigger) || !auth.holdId) {
      throw new ApiError(
        'INVALID_STATE',
        `A ${auth.status} authorization can not be ${trigger === 'capture' ? 'captured' : 'reversed'}.`,
        { status: auth.status },
      );
    }
    return auth as Authorization & { holdId: string };
  }

  /**
   * The card write of a capture or reversal: spend given back (only to counters still kept), a
   * single-use card closed by a capture, or freed by the reversal of its authorization (decisions:
   * docs/api.md "Cards": a reversed single-use authorization paid nothing, so the card may be used again).
   */
  function settleCard(
    auth: Authorization,
    card: Card | undefined,
    released: Big,
    now: Date,
    frees = false,
  ): { change?: CardChange; closed?: Card } {
    const keys = (auth.spendKeys ?? []).filter((key) => isLiveKey(key, now));
    const release = released.gt(0) && keys.length > 0 ? { amount: released.toFixed(), keys } : undefined;
    const closes = card?.type === 'SINGLE_USE' && card.status !== 'CANCELLED';
    const free = frees && auth.usesCard ? auth.id : undefined;
    if (!release && !closes && !free) return {};
    const at = now.toISOString();
    return {
      change: {
        type: 'settleCard',
        cardId: auth.cardId,
        ...(release ? { release } : {}),
        ...(closes ? { closeAt: at } : {}),
        ...(free ? { free } : {}),
      },
      ...(closes ? { closed: { ...card, status: 'CANCELLED', cancelledAt: at, updatedAt: at } } : {}),
    };
  }

  /** Captures an APPROVED authorization: `amount` (default all of it) paid, the rest released; a single-use card is cancelled. */
  async function capture(
    ctx: RequestContext,
    action: AuditAction,
    authorizationId: string,
    amountInput: string | undefined,
    idempotencyKey?: string,
  ): Promise<IdempotentResponse> {
    const scope = scopeOf(ctx.principal);
    const requested = amountInput === undefined ? undefined : parseAmount(amountInput, { allowNumber: false });
    return idempotent(
      scope,
      'organization',
      'card.capture',
      { authorizationId, amount: requested?.toFixed() },
      idempotencyKey,
      async (slot) => {
        const auth = await loadApproved(ctx, authorizationId, 'capture');
        const captured = requested ?? new Big(auth.amount);
        if (captured.gt(auth.amount))
          throw new ApiError('INVALID_AMOUNT', `amount: a capture takes at most ${auth.amount}`, {
            field: 'amount',
            max: auth.amount,
          });
        const now = clock.now();
        const at = now.toISOString();
        const transactionId = ids('transaction');
        const after: Authorization = {
          ...auth,
          status: 'CAPTURED',
          capturedAmount: formatAmount(captured),
          captureTransactionId: transactionId,
          capturedAt: at,
        };
        const settled = settleCard(auth, await store.getCard(auth.cardId), new Big(auth.amount).minus(captured), now);
        const body = presentAuthorization(after);
        const changes: Commit = [
          authorizationCapture(auth, transactionId, captured, at),
          {
            type: 'transitionAuthorization',
            authorizationId: auth.id,
            trigger: 'capture',
            set: { capturedAmount: after.capturedAmount, captureTransactionId: transactionId, capturedAt: at },
          },
          ...(settled.change ? [settled.change] : []),
          ...(settled.closed
            ? [
                eventChange(
                  {
                    organizationId: auth.organizationId,
                    environment: auth.environment,
                    type: 'card.cancelled',
                    data: presentCard(settled.closed),
                    createdAt: at,
                  },
                  ids,
                ),
              ]
            : []),
          eventOf(after, 'card.authorization.captured', at),
          auditOf(ctx.actor, after, action, at),
          ...answerOf(slot, 200, body, now),
        ];
        await store.commit(changes);
        return { status: 200, body, replayed: false };
      },
    );
  }

  /**
   * The reversal (the helper's and the expiry's): the hold voided, the card spend given back, a
   * single-use card freed, in one transaction conditioned on the authorization still APPROVED
   * (INVALID_STATE if it was captured or reversed meanwhile). `expired`: by the expiry sweep.
   */
  async function reverseApproved(
    action: AuditAction,
    auth: Authorization & { holdId: string },
    actor: Actor,
    expired = false,
  ): Promise<Authorization> {
    const now = clock.now();
    const at = now.toISOString();
    const after: Authorization = { ...auth, status: 'REVERSED', reversedAt: at, ...(expired ? { expiredAt: at } : {}) };
    const release = settleCard(auth, undefined, new Big(auth.amount), now, true).change;
    await store.commit([
      authorizationVoid(auth, ids('transaction'), at),
      {
        type: 'transitionAuthorization',
        authorizationId: auth.id,
        trigger: 'reverse',
        set: { reversedAt: at, ...(expired ? { expiredAt: at } : {}) },
      },
      ...(release ? [release] : []),
      eventOf(after, 'card.authorization.reversed', at),
      auditOf(actor, after, action, at, expired ? { expired: true } : {}),
    ]);
    return after;
  }

  /** Reverses an APPROVED authorization: the whole hold released, its card spend given back. */
  async function reverse(ctx: RequestContext, action: AuditAction, authorizationId: string): Promise<Authorization> {
    return reverseApproved(action, await loadApproved(ctx, authorizationId, 'reverse'), ctx.actor);
  }

  /**
   * The expiry (the `expiry-sweep` worker): APPROVED authorizations past their `expiresAt` (neither
   * captured nor reversed in time; our processor sends no reversal notice yet) are reversed by the
   * same reversal as the helper's, as the system, `expiredAt` set. Oldest first, at most
   * AUTHORIZATION_EXPIRY_BATCH_SIZE; returns how many were listed (a full batch: call again). One
   * captured or reversed meanwhile (the index lags, or a race) is left alone: the reversal's state
   * condition refuses it. Any other failure is logged; the authorization stays listed for the next run.
   * `action`: the audit action of the reversal, named by the worker.
   */
  async function expireDue(action: AuditAction): Promise<number> {
    const now = clock.now();
    const due = await store.listDueAuthorizations(now, AUTHORIZATION_EXPIRY_BATCH_SIZE);
    for (const listed of due) {
      try {
        const auth = await store.getAuthorization(listed.id);
        if (auth?.status !== 'APPROVED' || !auth.holdId || !auth.expiresAt || auth.expiresAt >= now.toISOString())
          continue;
        await reverseApproved(action, auth as Authorization & { holdId: string }, AUTHORIZATION_EXPIRY_ACTOR, true);
      } catch (error) {
        // A race (captured or reversed meanwhile) is no failure; anything else is logged and the
        // authorization moved back in the queue, so a record that keeps failing never blocks the batch.
        const current = await store.getAuthorization(listed.id).catch(() => undefined);
        if (current && current.status !== 'APPROVED') continue;
        // A state conflict on a record still read APPROVED is a read behind a race: moved back quietly.
        if (!(error instanceof ApiError && error.code === 'INVALID_STATE'))
          console.error(`expiring authorization ${listed.id} failed; it is looked at again later`, error);
        const retryAt = new Date(
          clock.now().getTime() + Math.max(1000, scaledMs(listed.environment, EXPIRY_RETRY_MS, timeScale)),
        ).toISOString();
        await store
          .commit([{ type: 'deferAuthorizationExpiry', authorizationId: listed.id, retryAt }])
          .catch(() => undefined);
      }
    }
    return due.length;
  }

  /** Refunds part or all of a CAPTURED authorization into its wallet: never more in all than was captured. */
  async function refund(
    ctx: RequestContext,
    action: AuditAction,
    authorizationId: string,
    amountInput: string,
    idempotencyKey?: string,
  ): Promise<IdempotentResponse> {
    const scope = scopeOf(ctx.principal);
    const amount = parseAmount(amountInput, { allowNumber: false });
    return idempotent(
      scope,
      'organization',
      'card.refund',
      { authorizationId, amount: amount.toFixed() },
      idempotencyKey,
      async (slot) => {
        const auth = accessibleAuthorization(ctx, await store.getAuthorization(authorizationId), authorizationId);
        if (auth.status !== 'CAPTURED')
          throw new ApiError(
            'INVALID_STATE',
            `A ${auth.status} authorization can not be refunded; only a CAPTURED one.`,
            { status: auth.status },
          );
        const refundable = new Big(auth.capturedAmount).minus(auth.refundedAmount);
        if (amount.gt(refundable))
          throw new ApiError('INVALID_AMOUNT', `amount: at most ${formatAmount(refundable)} is left to refund`, {
            field: 'amount',
            max: formatAmount(refundable),
          });
        const now = clock.now();
        const at = now.toISOString();
        const transactionId = ids('transaction');
        const body: CardRefundView = {
          id: transactionId,
          object: 'card_refund',
          authorizationId: auth.id,
          cardId: auth.cardId,
          walletId: auth.walletId,
          amount: formatAmount(amount),
          createdAt: at,
        };
        const after: Authorization = {
          ...auth,
          refundedAmount: formatAmount(new Big(auth.refundedAmount).plus(amount)),
        };
        await store.commit([
          cardRefund(auth, transactionId, amount, at),
          {
            type: 'refundAuthorization',
            authorizationId: auth.id,
            amount: amount.toFixed(),
            capturedAmount: auth.capturedAmount,
          },
          eventChange(
            {
              organizationId: auth.organizationId,
              environment: auth.environment,
              type: 'card.refund.created',
              data: body,
              createdAt: at,
            },
            ids,
          ),
          auditOf(ctx.actor, after, action, at, { refundAmount: body.amount, transactionId }),
          ...answerOf(slot, 201, body, now),
        ]);
        return { status: 201, body, replayed: false };
      },
    );
  }

  async function getAuthorization(ctx: RequestContext, authorizationId: string): Promise<Authorization> {
    return accessibleAuthorization(ctx, await store.getAuthorization(authorizationId), authorizationId);
  }

  return { authorize, authorizeForNetwork, capture, reverse, refund, getAuthorization, expireDue };
}
