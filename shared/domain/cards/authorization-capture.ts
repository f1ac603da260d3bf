import Big from 'big.js';
import { scopeOf } from '../access.js';
import type { AuditAction } from '../audit/actions.js';
import { eventChange } from '../audit/audit.js';
import { ApiError } from '../errors.js';
import type { IdempotentResponse } from '../idempotency/idempotency.js';
import { formatAmount, parseAmount } from '../money.js';
import type { ServiceDeps } from '../ports.js';
import type { RequestContext } from '../tenancy.js';
import type { AuthorizationCommit, Commit } from './authorization-commit.js';
import { authorizationCapture } from './authorization-postings.js';
import { loadApproved, settleCard } from './authorization-settlement.js';
import { presentAuthorization, presentCard } from './card-view.js';
import type { CardStore } from './ports.js';
import type { Authorization } from './types.js';

/** The capture of an APPROVED authorization: the money paid, the rest of the hold released. */
export function createCapture(
  deps: ServiceDeps<CardStore>,
  { idempotent, answerOf, auditOf, eventOf }: AuthorizationCommit,
) {
  const { store, clock, ids } = deps;

  /** Captures an APPROVED authorization: `amount` (default all of it) paid, the rest released; a single-use card is cancelled. */
  return async function capture(
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
        const auth = await loadApproved(store, ctx, authorizationId, 'capture');
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
  };
}
