import { scopeOf } from '../access.js';
import type { AuditAction } from '../audit/actions.js';
import { ApiError } from '../errors.js';
import {
  answerChange,
  claimOf,
  fingerprintOf,
  runIdempotent,
  type IdempotentResponse,
} from '../idempotency/idempotency.js';
import { formatAmount, parseAmount } from '../money.js';
import { visiblePayment } from '../payments/payment-reads.js';
import type { RequestContext } from '../tenancy.js';
import type { DisputeKernel } from './dispute-kernel.js';
import { disputeHold } from './dispute-postings.js';
import {
  assertClaim,
  assertDisputable,
  auditText,
  cannotTakeAmount,
  INITIATOR_ACTOR,
  nextRefusals,
  refusalRetryAfterS,
  respondByOf,
} from './dispute-rules.js';
import { presentDispute } from './dispute-view.js';
import type { DisputeServiceDeps } from './ports.js';
import type { Dispute, DisputeType, FundsRefusals } from './types.js';

const RECEIVING_CLOSED = 'The receiving wallet is closed.';

export interface OpenDisputeInput {
  transactionId: string;
  respondentOrgId?: string | undefined;
  type: DisputeType;
  amount: unknown;
  reason: string;
}

/**
 * Opening a dispute (docs/api.md "Disputes"): the checks in their documented order, then ONE
 * transaction: the dispute (OPEN), the payment's mark (`disputeId`, conditioned on it being a POSTED
 * payment never disputed, so a racing reversal or second opening loses), the DISPUTE posting (the
 * receiving wallet -> acc_SUSPENSE), both parties' audit entries and `dispute.created`, the key's
 * answer. Then the deadline workflow starts (a failure to start is logged: a replay of the opening
 * starts it again while the dispute is OPEN; a late response applies the deadline too, and the
 * operator can resolve it).
 */
export function disputeOpening(deps: DisputeServiceDeps, kernel: DisputeKernel) {
  const { store, clock, ids } = deps;

  async function open(
    ctx: RequestContext,
    action: AuditAction,
    input: OpenDisputeInput,
    idempotencyKey?: string,
  ): Promise<IdempotentResponse> {
    const scope = scopeOf(ctx.principal);
    const amount = parseAmount(input.amount);
    const fingerprint = fingerprintOf('dispute.open', {
      transactionId: input.transactionId,
      respondentOrgId: input.respondentOrgId,
      type: input.type,
      amount: formatAmount(amount),
      reason: input.reason,
      scope: ctx.principal.walletId ?? 'organization',
    });
    const claim = idempotencyKey === undefined ? undefined : await claimOf(scope, idempotencyKey, fingerprint);
    const response = await runIdempotent(store, claim, clock.now(), () => ids('transaction'), {
      execute: async (slotId, keyClaim) => {
        const payment = visiblePayment(
          ctx.principal,
          await store.getTransaction(input.transactionId),
          input.transactionId,
          { field: 'transactionId' },
        );
        assertDisputable(ctx.principal, payment);
        // A paused agent starts no money movement with its own key (its organization's key still may).
        if (ctx.principal.walletId !== null && (await store.getWallet(payment.from))?.status !== 'ACTIVE')
          throw new ApiError('WALLET_FROZEN', undefined, { walletId: payment.from });
        assertClaim(payment, input.respondentOrgId, amount);
        const receiving = await store.getWallet(payment.to);
        if (!receiving || receiving.deletedAt) throw new ApiError('DISPUTE_NOT_ALLOWED', RECEIVING_CLOSED);
        const refusals = await store.getFundsRefusals(payment.id);
        const retryAfter = refusalRetryAfterS(refusals, clock.now());
        if (retryAfter !== undefined) throw new ApiError('RATE_LIMIT_EXCEEDED', undefined, { retryAfter });
        if (receiving.balance.lt(amount)) {
          // A reversal or an opening committed since the payment was read took the money: its answer first.
          assertDisputable(ctx.principal, (await store.getTransaction(payment.id)) ?? payment);
          throw await refusedForFunds(payment.id, refusals);
        }

        const now = clock.now();
        const at = now.toISOString();
        const dispute: Dispute = {
          id: ids('dispute'),
          organizationId: scope.organizationId,
          environment: scope.environment,
          transactionId: payment.id,
          respondentOrgId: payment.payeeOrganizationId!,
          payerWalletId: payment.from,
          receivingWalletId: payment.to,
          type: input.type,
          amount: formatAmount(amount),
          currency: 'USD',
          reason: input.reason,
          status: 'OPEN',
          respondBy: respondByOf(scope.environment, now, deps.timeScale),
          holdTransactionId: ids('transaction'),
          requestedByKeyId: ctx.principal.keyId,
          createdAt: at,
          updatedAt: at,
        };
        const body = presentDispute(dispute);
        const metadata = { reason: auditText(dispute.reason) };
        try {
          await store.commit([
            { type: 'putDispute', dispute },
            disputeHold(dispute, at),
            kernel.auditOf('INITIATOR', ctx.actor, dispute, action, at, metadata),
            kernel.auditOf('RESPONDENT', INITIATOR_ACTOR, dispute, action, at, metadata),
            ...kernel.eventsOf('dispute.created', dispute, at),
            ...(keyClaim ? [answerChange(slotId, keyClaim, 201, body, now)] : []),
          ]);
        } catch (error) {
          // The posting writer's INSUFFICIENT_FUNDS names the respondent's wallet and balance: said as cannotTakeAmount.
          if (error instanceof ApiError && error.code === 'INSUFFICIENT_FUNDS')
            throw await refusedForFunds(payment.id, refusals);
          throw openingRefusal(error);
        }
        await startDeadline(dispute);
        return { status: 201, body, replayed: false };
      },
    });
    if (response.replayed && response.status === 201) {
      // The first request may have died before starting its workflow: starting it again is harmless (as transfers do).
      const first = await store.getDispute((response.body as { id: string }).id);
      if (first?.status === 'OPEN') await startDeadline(first);
    }
    return response;
  }

  /**
   * A refusal for funds, counted first (balance probing: dispute-rules.ts MAX_FUNDS_REFUSALS); a
   * racing refusal of the same payment fails the count (CONCURRENT_UPDATE, nothing learned).
   */
  async function refusedForFunds(transactionId: string, previous: FundsRefusals | undefined) {
    const refusals = nextRefusals(previous, clock.now());
    await store.commit([{ type: 'countFundsRefusal', transactionId, refusals, ...(previous && { previous }) }]);
    return cannotTakeAmount();
  }

  async function startDeadline(dispute: Dispute): Promise<void> {
    if (!deps.workflows) return;
    try {
      await deps.workflows.start(dispute);
    } catch (error) {
      deps.log.error(`dispute ${dispute.id}: no deadline workflow`, error);
    }
  }

  return { open };
}

/**
 * A refusal of the receiving wallet's write (other than for funds) said as the initiator may hear
 * it: a wallet closed meanwhile as DISPUTE_NOT_ALLOWED. The payment's own refusals (DISPUTE_EXISTS,
 * INVALID_STATE of the payment) pass as they are; the wallet's others can not happen (it was read,
 * in the payment's environment, and its legs run on a FROZEN wallet).
 */
function openingRefusal(error: unknown): unknown {
  if (!(error instanceof ApiError)) return error;
  return error.code === 'INVALID_STATE' && error.details?.walletId !== undefined
    ? new ApiError('DISPUTE_NOT_ALLOWED', RECEIVING_CLOSED)
    : error;
}
