import Big from 'big.js';
import { scopeOf } from '../access.js';
import type { AuditAction } from '../audit/actions.js';
import { eventChange } from '../audit/audit.js';
import { ApiError } from '../errors.js';
import type { IdempotentResponse } from '../idempotency/idempotency.js';
import { formatAmount, parseAmount } from '../money.js';
import type { ServiceDeps } from '../ports.js';
import type { RequestContext } from '../tenancy.js';
import { accessibleAuthorization } from './access.js';
import type { AuthorizationCommit } from './authorization-commit.js';
import { cardRefund } from './authorization-postings.js';
import type { CardRefundView } from './card-view.js';
import type { CardStore } from './ports.js';
import type { Authorization } from './types.js';

/** The refund of a CAPTURED authorization into its wallet. */
export function createRefund(deps: ServiceDeps<CardStore>, { idempotent, answerOf, auditOf }: AuthorizationCommit) {
  const { store, clock, ids } = deps;

  /** Refunds part or all of a CAPTURED authorization into its wallet: never more in all than was captured. */
  return async function refund(
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
  };
}
