import { scopeOf } from '../access.js';
import type { AuditAction } from '../audit/actions.js';
import { ApiError } from '../errors.js';
import { claimOf, fingerprintOf, runIdempotent, type IdempotentResponse } from '../idempotency/idempotency.js';
import type { ServiceDeps } from '../ports.js';
import { canTransition } from '../state-table.js';
import type { RequestContext } from '../tenancy.js';
import type { Transaction } from '../types.js';
import type { PaymentReads } from './payment-reads.js';
import { paymentPosting, replayOfPayment } from './payment-posting.js';
import { presentPayment } from './payment-view.js';
import type { PaymentStore } from './ports.js';
import { TRANSACTION_STATES } from './transaction-states.js';

/**
 * The reversal of a posted payment (`POST /v1/payments/{id}/reverse`) by the receiving
 * organization: who may reverse what, and the mirror transaction posted under the key.
 */
export function createPaymentReversal(deps: ServiceDeps<PaymentStore>, { get }: Pick<PaymentReads, 'get'>) {
  const { store, clock, ids } = deps;

  /**
   * Posts the mirror transaction; the original becomes REVERSED in the same transaction, so a
   * second reversal finds it no longer POSTED (REVERSAL_NOT_ALLOWED) and nothing moves twice.
   */
  async function reverse(
    ctx: RequestContext,
    action: AuditAction,
    transactionId: string,
    idempotencyKey: string | undefined,
  ): Promise<IdempotentResponse> {
    const scope = scopeOf(ctx.principal);
    const fingerprint = fingerprintOf('payment.reverse', {
      transactionId,
      scope: ctx.principal.walletId ?? 'organization',
    });
    const claim = idempotencyKey === undefined ? undefined : await claimOf(scope, idempotencyKey, fingerprint);
    return runIdempotent(store, claim, clock.now(), () => ids('transaction'), {
      replay: replayOfPayment,
      execute: async (reversalId, keyClaim) => {
        const original = await get(ctx, transactionId);
        const receiving = original.payeeOrganizationId === scope.organizationId;
        const payingOwnsBoth =
          original.organizationId === scope.organizationId && original.payeeOrganizationId === scope.organizationId;
        // A wallet-scoped key only ever gives back money its own wallet received.
        const scopedToPayee = ctx.principal.walletId === null || ctx.principal.walletId === original.to;
        if ((!receiving && !payingOwnsBoth) || !scopedToPayee) {
          throw new ApiError('REVERSAL_NOT_ALLOWED', 'Only the receiving organization can reverse this payment.');
        }
        if (original.type !== 'PAYMENT' || !canTransition(TRANSACTION_STATES, original.status, 'reverse')) {
          throw new ApiError(
            'REVERSAL_NOT_ALLOWED',
            `A ${original.status} ${original.type.toLowerCase()} cannot be reversed.`,
            { status: original.status },
          );
        }
        // It paid an invoice (payment-rider.ts): the invoice is PAID by it; giving it back is the invoice's refund.
        if (original.invoiceId !== undefined)
          throw new ApiError('REVERSAL_NOT_ALLOWED', 'This payment paid an invoice: refund the invoice instead.', {
            invoiceId: original.invoiceId,
          });
        // Disputed (decisions.md section 2): the dispute decides where the money goes; the write's condition re-checks it.
        if (original.disputeId !== undefined)
          throw new ApiError('REVERSAL_NOT_ALLOWED', 'The payment is disputed.', {
            disputeId: original.disputeId,
          });
        const at = clock.now().toISOString();
        const reversal: Transaction = {
          id: reversalId,
          type: 'REVERSAL',
          organizationId: original.payeeOrganizationId ?? original.organizationId,
          environment: original.environment,
          from: original.to,
          to: original.from,
          payeeOrganizationId: original.organizationId,
          amount: original.amount,
          fee: '0.00',
          currency: 'USD',
          status: 'POSTED',
          reversalOf: original.id,
          createdAt: at,
          postedAt: at,
          requestedByKeyId: ctx.principal.keyId,
          ...(idempotencyKey ? { idempotencyKey } : {}),
        };
        await store.commit([
          {
            type: 'setTransactionStatus',
            transactionId: original.id,
            trigger: 'reverse',
            fields: { reversedBy: reversal.id },
            onMismatch: 'REVERSAL_NOT_ALLOWED',
          },
          paymentPosting({
            transaction: reversal,
            record: 'create',
            actor: ctx.actor,
            auditAction: action,
            ...(keyClaim ? { claim: keyClaim } : {}),
          }),
        ]);
        return { status: 200, body: presentPayment(reversal), replayed: false };
      },
    });
  }

  return { reverse };
}
