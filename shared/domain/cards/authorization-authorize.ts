import type Big from 'big.js';
import type { AuditAction } from '../audit/actions.js';
import { ApiError } from '../errors.js';
import { type IdempotentResponse, RESERVED_KEY_PREFIX } from '../idempotency/idempotency.js';
import { formatAmount, parseAmount } from '../money.js';
import type { ServiceDeps } from '../ports.js';
import type { Actor, Environment, RequestContext } from '../tenancy.js';
import { accessibleCard } from './access.js';
import type { AuthorizationCommit, Slot } from './authorization-commit.js';
import { decideAuthorization, declineOfCommitFailure } from './authorization-decision.js';
import { authorizationExpiresAt } from './authorization-expiry.js';
import { authorizationHold } from './authorization-postings.js';
import { presentAuthorization, type AuthorizationView } from './card-view.js';
import type { CardStore } from './ports.js';
import { telemetry } from '../telemetry.js';
import type { Authorization, Card, DeclineReason, Merchant } from './types.js';

/**
 * The authorization itself: the real-time decision (authorization-decision.ts) committed as one
 * transaction with its hold, for the card network (functions/card-network) and the sandbox test helper.
 */

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

/** The card network acts as the system, not as a key (decisions.md section 9: scheduled and automatic actions are SYSTEM). */
export const CARD_NETWORK_ACTOR: Actor = { actorType: 'SYSTEM', actorId: 'card-network', ipAddress: '0.0.0.0' };

/** Decisions made again when the card changed between the read and the commit (a freeze, new limits). */
const MAX_DECISION_ATTEMPTS = 3;

export function createAuthorize(
  deps: ServiceDeps<CardStore>,
  { idempotent, answerOf, auditOf, eventOf }: AuthorizationCommit,
) {
  const { store, clock, ids, timeScale } = deps;

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
    const started = performance.now();
    const card = accessibleCard(ctx, await store.getCard(cardId), cardId);
    const amount = parseAmount(input.amount, { allowNumber: false });
    const params = { cardId, amount: amount.toFixed(), merchant: input.merchant };
    const response = await idempotent(
      card,
      ctx.principal.walletId ?? 'organization',
      'card.authorize',
      params,
      idempotencyKey,
      (slot) => decide(action, card, amount, input.merchant, ctx.actor, slot, idempotencyKey),
    );
    if (!response.replayed) recordDecision(started, (response.body as AuthorizationView).status === 'APPROVED');
    return response;
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
    const started = performance.now();
    const decision = await networkDecision(action, request, environment);
    recordDecision(started, decision.approved);
    return decision;
  }

  async function networkDecision(
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

  return { authorize, authorizeForNetwork };
}

/** A decision reported (../telemetry.ts: approved or declined) with its latency from the request. */
function recordDecision(started: number, approved: boolean): void {
  telemetry().cardDecision(approved ? 'approved' : 'declined', performance.now() - started);
}
