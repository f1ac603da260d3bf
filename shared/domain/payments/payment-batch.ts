import { scopeOf } from '../access.js';
import type { AuditAction } from '../audit/actions.js';
import { ApiError, ERRORS, toEnvelope, validationError } from '../errors.js';
import {
  claimBatchKey,
  claimOf,
  fingerprintOf,
  resolveIdempotencyKey,
  type IdempotentResponse,
} from '../idempotency/idempotency.js';
import { formatAmount, parseAmount } from '../money.js';
import type { ServiceDeps } from '../ports.js';
import type { RequestContext } from '../tenancy.js';
import type { CreatePayment, CreatePaymentInput } from './payment-creation.js';
import type { PaymentLookups } from './payment-lookups.js';
import type { BatchItemResult } from './payment-view.js';
import { domainLog as log } from '../telemetry.js';
import type { PaymentStore } from './ports.js';

export const MAX_BATCH_SIZE = 100;

/**
 * A batch of payments (`POST /v1/payments/batch`): the batch key's claim, each item created on its
 * own (sharing the batch's reads), and the answer: 200 when all posted, else 207 with every item.
 */
export function createPaymentBatch(
  deps: ServiceDeps<PaymentStore>,
  { create, batchLookups }: { create: CreatePayment; batchLookups: () => PaymentLookups },
) {
  const { store, clock } = deps;

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

  return { batch };
}

function unexpected(error: unknown, requestId: string): ApiError {
  log.error(`request ${requestId}: a batch item failed unexpectedly`, error);
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
