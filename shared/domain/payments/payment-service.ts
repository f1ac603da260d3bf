import { presentApproval } from '../approvals/approval-view.js';
import { assertAccessible, loadAccessibleWallet, scopeOf } from '../access.js';
import type { AuditAction } from '../audit/actions.js';
import { auditChange, eventChange } from '../audit/audit.js';
import { ApiError, ERRORS, notFound, toEnvelope, validationError } from '../errors.js';
import {
  claimBatchKey,
  claimOf,
  fingerprintOf,
  postingClaim,
  resolveIdempotencyKey,
  runIdempotent,
  type IdempotentResponse,
} from '../idempotency/idempotency.js';
import { formatAmount, parseAmount } from '../money.js';
import { evaluatePolicies } from '../policies/policy-rules.js';
import type { ServiceDeps } from '../ports.js';
import type { ExpiryScheduler } from '../expiries/ports.js';
import type { PaymentStore, TransactionFilter } from './ports.js';
import { TRANSACTION_STATES } from './transaction-states.js';
import { canTransition } from '../state-table.js';
import type { RequestContext } from '../tenancy.js';
import type { Approval, Page, PageRequest, Transaction } from '../types.js';
import { approvalExpiryMs } from '../approvals/approval-rules.js';
import { createPaymentLookups, type PaymentLookups } from './payment-lookups.js';
import { paymentPosting, queuedAnswer, replayOfPayment } from './payment-posting.js';
import { spendOf } from '../policies/spend.js';
import { presentPayment, type BatchItemResult, type PaymentView } from './payment-view.js';

export const MAX_BATCH_SIZE = 100;

export interface CreatePaymentInput {
  from: string;
  to: string;
  amount: unknown;
  description?: string | undefined;
  idempotencyKey?: string | undefined;
}

/** Payments between wallets (interface-spec 4.2, decisions.md section 3). */
export interface PaymentServiceOptions {
  /** Schedules the expiry of each approval created (after its commit). Absent: the sweep alone expires it. */
  expiries?: ExpiryScheduler | undefined;
  log?: Pick<Console, 'error'>;
}

export function createPaymentService(deps: ServiceDeps<PaymentStore>, options: PaymentServiceOptions = {}) {
  const { store, clock, ids } = deps;
  const log = options.log ?? console;

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
  const { freshLookups, batchLookups } = createPaymentLookups(store);

  async function create(
    ctx: RequestContext,
    action: AuditAction,
    input: CreatePaymentInput,
    lookups: PaymentLookups = freshLookups,
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
            fee: '0.00',
            currency: 'USD',
            status: 'POSTED',
            createdAt,
            requestedByKeyId: ctx.principal.keyId,
            ...(input.description ? { description: input.description } : {}),
            ...(input.idempotencyKey ? { idempotencyKey: input.idempotencyKey } : {}),
            ...(payee.merchant ? { merchant: payee.merchant } : {}),
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
              spend: spendOf(payer.id, amount, now, decision.periodLimits, snapshot!.counters),
              ...(keyClaim ? { claim: keyClaim } : {}),
            }),
          ]);
          return { status: 200, body: presentPayment(posted), replayed: false };
        },
      },
      read.slot,
    );
  }

  /** Visible to the paying organization and to the receiving one. */
  async function get(ctx: RequestContext, transactionId: string): Promise<Transaction> {
    const scope = scopeOf(ctx.principal);
    const transaction = await store.getTransaction(transactionId);
    const visible =
      transaction &&
      (transaction.organizationId === scope.organizationId ||
        transaction.payeeOrganizationId === scope.organizationId) &&
      (ctx.principal.walletId === null ||
        ctx.principal.walletId === transaction.from ||
        ctx.principal.walletId === transaction.to);
    if (!visible) throw notFound('TRANSACTION_NOT_FOUND', transactionId);
    if (transaction.environment !== scope.environment) throw new ApiError('ENVIRONMENT_MISMATCH');
    return transaction;
  }

  async function list(ctx: RequestContext, filter: TransactionFilter, page: PageRequest): Promise<Page<Transaction>> {
    const scope = scopeOf(ctx.principal);
    // A wallet filter names a wallet the key may see (other organizations' wallets answer 404).
    const walletId = filter.walletId ?? ctx.principal.walletId ?? undefined;
    if (walletId !== undefined && walletId !== ctx.principal.walletId)
      await loadAccessibleWallet(store, ctx.principal, walletId);
    return store.listTransactions(scope.organizationId, scope.environment, { ...filter, walletId }, page);
  }

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

  /**
   * Each item runs on its own under its own key: its own, or `<batch key>#<index>` (decisions.md
   * section 3). The batch key claims the items (another batch under it is IDEMPOTENCY_KEY_REUSE);
   * a retry runs every item again, so posted and refused items answer as before (from their own
   * slots) and items that failed for a retryable reason run again. Nothing of the answer is stored
   * beyond the items' own records, so no batch can outgrow an item.
   */
  async function batch(
    ctx: RequestContext,
    action: AuditAction,
    items: CreatePaymentInput[],
    batchKey: string | undefined,
  ): Promise<IdempotentResponse> {
    const scope = scopeOf(ctx.principal);
    if (batchKey !== undefined) {
      items.forEach((item, index) => {
        if (item.idempotencyKey === batchKey)
          throw validationError(`payments.${index}.idempotencyKey`, 'must differ from the batch idempotency key');
      });
      const fingerprint = fingerprintOf('payment.batch', {
        items: items.map(normalizedItem),
        scope: ctx.principal.walletId ?? 'organization',
      });
      await claimBatchKey(store, await claimOf(scope, batchKey, fingerprint), clock.now());
    }
    const results = await runBatch(ctx, action, items, batchKey);
    const response = batchResponse(results.map((r) => r.result));
    return { ...response, replayed: batchKey !== undefined && results.every((r) => r.replayed) };
  }

  async function runBatch(
    ctx: RequestContext,
    action: AuditAction,
    items: CreatePaymentInput[],
    batchKey: string | undefined,
  ): Promise<{ result: BatchItemResult; replayed: boolean }[]> {
    const results: { result: BatchItemResult; replayed: boolean }[] = [];
    const lookups = batchLookups();
    for (const [index, item] of items.entries()) {
      try {
        const idempotencyKey =
          resolveIdempotencyKey(item.idempotencyKey, undefined) ?? (batchKey ? `${batchKey}#${index}` : undefined);
        const response = await create(ctx, action, { ...item, idempotencyKey }, lookups);
        const result: BatchItemResult = {
          index,
          status: response.status,
          ...(response.status === 200
            ? { payment: response.body }
            : { error: (response.body as { error: BatchItemResult['error'] }).error }),
        };
        results.push({ result, replayed: response.replayed });
      } catch (error) {
        // An item that fails unexpectedly is reported as retryable: its own key makes the retry safe,
        // and the items before it (posted) stay reported as posted.
        const failure = error instanceof ApiError ? error : unexpected(error, ctx.requestId);
        results.push({ result: { index, status: failure.status, error: toEnvelope(failure).error }, replayed: false });
      }
    }
    return results;
  }

  return { create, get, list, reverse, batch };
}

function unexpected(error: unknown, requestId: string): ApiError {
  console.error(`request ${requestId}: a batch item failed unexpectedly`, error);
  return new ApiError('INTERNAL_ERROR', undefined, { retryable: ERRORS.INTERNAL_ERROR.retryable });
}

function normalizedItem(item: CreatePaymentInput) {
  let amount: string;
  try {
    amount = formatAmount(parseAmount(item.amount));
  } catch {
    amount = JSON.stringify(item.amount);
  }
  return {
    from: item.from,
    to: item.to,
    amount,
    description: item.description ?? null,
    idempotencyKey: item.idempotencyKey ?? null,
  };
}

/** All posted: 200 with the payments; otherwise 207 BATCH_PARTIAL_FAILURE with every item's result. */
function batchResponse(results: BatchItemResult[]): IdempotentResponse {
  if (results.every((r) => r.status === 200))
    return { status: 200, body: { data: results.map((r) => r.payment) }, replayed: false };
  const failed = results.filter((r) => r.status !== 200).length;
  const error = new ApiError('BATCH_PARTIAL_FAILURE', `${failed} of ${results.length} payments did not post.`, {
    results,
  });
  return { status: error.status, body: toEnvelope(error), replayed: false };
}

export type PaymentService = ReturnType<typeof createPaymentService>;
export type { PaymentView };
