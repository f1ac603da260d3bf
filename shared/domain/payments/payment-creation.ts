import { presentApproval } from '../approvals/approval-view.js';
import { approvalExpiryMs } from '../approvals/approval-rules.js';
import { assertAccessible, scopeOf } from '../access.js';
import type { AuditAction } from '../audit/actions.js';
import { auditChange, eventChange } from '../audit/audit.js';
import { ApiError } from '../errors.js';
import type { ExpiryScheduler } from '../expiries/ports.js';
import {
  claimOf,
  fingerprintOf,
  postingClaim,
  runIdempotent,
  type IdempotentResponse,
} from '../idempotency/idempotency.js';
import { formatAmount, parseAmount } from '../money.js';
import { evaluatePolicies } from '../policies/policy-rules.js';
import { spendOf } from '../policies/spend.js';
import type { ServiceDeps } from '../ports.js';
import type { RequestContext } from '../tenancy.js';
import type { Approval, Transaction } from '../types.js';
import type { PaymentLookups } from './payment-lookups.js';
import { paymentPosting, queuedAnswer, replayOfPayment } from './payment-posting.js';
import { presentPayment } from './payment-view.js';
import type { PaymentRider } from './payment-rider.js';
import { telemetry } from '../telemetry.js';
import type { PaymentStore } from './ports.js';

export interface CreatePaymentInput {
  from: string;
  to: string;
  amount: unknown;
  description?: string | undefined;
  idempotencyKey?: string | undefined;
  /** What the payment pays besides the payee (an invoice): its fee and its changes (payment-rider.ts). */
  rider?: PaymentRider | undefined;
}

/**
 * One payment (`POST /v1/payments`) under its key: the payer's and payee's checks in the evaluation
 * order, then either the posting (200) or, when a policy asks for approval, the payment queued with
 * its approval (202) and the approval's expiry scheduled.
 */
export function createPaymentCreation(
  deps: ServiceDeps<PaymentStore>,
  options: {
    /** The reads of a payment on its own (a batch passes its shared ones to `create`). */
    freshLookups: PaymentLookups;
    expiries?: ExpiryScheduler | undefined;
    log: Pick<Console, 'error'>;
  },
) {
  const { store, clock, ids } = deps;
  const { freshLookups, log } = options;

  /**
   * After the commit: the payment is queued whatever happens here. A schedule that could not be
   * created is logged; the expiry sweep (the `expiry-sweep` worker) expires the approval instead.
   */
  async function scheduleExpiry(approval: Approval): Promise<void> {
    if (!options.expiries) return;
    try {
      await options.expiries.schedule({ kind: 'approval', id: approval.id }, approval.expiresAt);
    } catch (error) {
      log.error(`could not schedule the expiry of ${approval.id}; the expiry sweep will expire it`, error);
    }
  }

  /** A payment's outcome reported (../telemetry.ts): posted, queued for approval, or refused by its code. Replays count nothing. */
  async function create(
    ctx: RequestContext,
    action: AuditAction,
    input: CreatePaymentInput,
    lookups: PaymentLookups = freshLookups,
  ): Promise<IdempotentResponse> {
    try {
      const response = await createOnce(ctx, action, input, lookups);
      if (!response.replayed) telemetry().payment({ kind: response.status === 202 ? 'queued' : 'posted' });
      return response;
    } catch (error) {
      if (error instanceof ApiError) telemetry().payment({ kind: 'refused', code: error.code });
      throw error;
    }
  }

  async function createOnce(
    ctx: RequestContext,
    action: AuditAction,
    input: CreatePaymentInput,
    lookups: PaymentLookups,
  ): Promise<IdempotentResponse> {
    const scope = scopeOf(ctx.principal);
    const amount = parseAmount(input.amount);
    const amountText = formatAmount(amount);
    // The caller's wallet scope is part of the parameters: one agent's key never replays another's payment.
    const fingerprint = fingerprintOf('payment.create', {
      from: input.from,
      to: input.to,
      amount: amountText,
      description: input.description,
      scope: ctx.principal.walletId ?? 'organization',
      ...(input.rider ? { invoiceId: input.rider.invoiceId } : {}),
    });
    const claim =
      input.idempotencyKey === undefined ? undefined : await claimOf(scope, input.idempotencyKey, fingerprint);
    // Two reads, side by side: the payee with the key's slot (a replay answers from it), the payer's snapshot.
    const [read, snapshot] = await Promise.all([
      lookups.payee(scope, input.to, await claim?.slotId(0)),
      lookups.snapshot(input.from),
    ]);

    return runIdempotent(
      store,
      claim,
      clock.now(),
      () => ids('transaction'),
      {
        replay: replayOfPayment,
        execute: async (transactionId, keyClaim) => {
          if (input.from === input.to) throw new ApiError('SELF_PAYMENT', 'A payment needs two different wallets.');
          const payer = assertAccessible(ctx.principal, snapshot?.wallet, input.from);
          const refusal = input.rider?.refusal();
          if (refusal) throw refusal;
          const payee = await read.payee;
          if (payee.wallet.id === payer.id)
            throw new ApiError('SELF_PAYMENT', 'A payment needs two different wallets.');
          // Evaluation order (decisions.md section 3): frozen -> deny rules -> approval -> funds.
          if (payer.status !== 'ACTIVE') throw new ApiError('WALLET_FROZEN', undefined, { walletId: payer.id });
          if (payee.wallet.status !== 'ACTIVE')
            throw new ApiError('WALLET_FROZEN', undefined, { walletId: payee.wallet.id });
          const now = clock.now();
          const decision = evaluatePolicies(snapshot!.policies, snapshot!.counters, {
            walletId: payer.id,
            to: payee.wallet.id,
            toAliases: [input.to],
            amount,
            at: now,
          });
          const createdAt = now.toISOString();
          const transaction: Transaction = {
            id: transactionId,
            type: 'PAYMENT',
            ...scope,
            from: payer.id,
            to: payee.wallet.id,
            payeeOrganizationId: payee.wallet.organizationId,
            amount: amountText,
            fee: input.rider ? formatAmount(input.rider.fee) : '0.00',
            currency: 'USD',
            status: 'POSTED',
            createdAt,
            requestedByKeyId: ctx.principal.keyId,
            ...(input.description ? { description: input.description } : {}),
            ...(input.idempotencyKey ? { idempotencyKey: input.idempotencyKey } : {}),
            ...(payee.merchant ? { merchant: payee.merchant } : {}),
            ...(input.rider ? { invoiceId: input.rider.invoiceId } : {}),
          };
          const idempotency = keyClaim ? postingClaim(keyClaim) : undefined;

          if (decision.kind === 'APPROVAL') {
            const approval: Approval = {
              id: ids('approval'),
              ...scope,
              walletId: payer.id,
              status: 'PENDING',
              payment: {
                from: payer.id,
                to: payee.wallet.id,
                amount: amountText,
                ...(input.description ? { description: input.description } : {}),
                ...(payee.merchant ? { merchant: payee.merchant } : {}),
              },
              transactionId: transaction.id,
              reason: decision.reason,
              requestedByKeyId: ctx.principal.keyId,
              createdAt,
              expiresAt: new Date(now.getTime() + approvalExpiryMs(scope.environment, deps.timeScale)).toISOString(),
            };
            const queued: Transaction = { ...transaction, status: 'QUEUED', approvalId: approval.id };
            await store.commit([
              {
                type: 'createTransaction',
                transaction: queued,
                ...(idempotency ? { idempotency, approvalExpiresAt: approval.expiresAt } : {}),
              },
              { type: 'createApproval', approval },
              auditChange(
                {
                  ...scope,
                  actor: ctx.actor,
                  action,
                  resource: 'payment',
                  resourceId: queued.id,
                  walletId: payer.id,
                  metadata: {
                    transactionId: queued.id,
                    amount: amountText,
                    currency: 'USD',
                    recipientWalletId: payee.wallet.id,
                    status: 'QUEUED',
                    approvalId: approval.id,
                  },
                  createdAt,
                },
                ids,
              ),
              eventChange({ ...scope, type: 'approval.requested', data: presentApproval(approval), createdAt }, ids),
            ]);
            await scheduleExpiry(approval);
            return queuedAnswer(queued.id, approval.id, approval.expiresAt);
          }

          const posted: Transaction = { ...transaction, postedAt: createdAt };
          await store.commit([
            paymentPosting({
              transaction: posted,
              record: 'create',
              actor: ctx.actor,
              auditAction: action,
              spend: spendOf(payer.id, amount, now, decision.periodLimits, snapshot!.counters, snapshot!.policyVersion),
              ...(keyClaim ? { claim: keyClaim } : {}),
            }),
            ...(input.rider ? input.rider.changesOnPost(posted, ctx.actor) : []),
          ]);
          return { status: 200, body: presentPayment(posted), replayed: false };
        },
      },
      read.slot,
    );
  }

  return { create };
}

export type CreatePayment = ReturnType<typeof createPaymentCreation>['create'];
