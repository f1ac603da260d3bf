import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { ApiError } from '../domain/errors.js';
import { METRIC } from '../observability/metric-names.js';
import { countMetric, currentOperation } from '../observability/metrics.js';

type TransactItems = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>;
export type TransactItem = TransactItems[number];

/**
 * What a failed condition on this item means for the client. Receives the item as it was
 * (ReturnValuesOnConditionCheckFailure ALL_OLD), or undefined when it did not exist.
 */
export type ConditionFailureMapper = (oldItem: Record<string, unknown> | undefined) => Error;

export interface TransactWrite {
  item: TransactItem;
  onConditionFailed?: ConditionFailureMapper;
}

export const MAX_TRANSACT_ITEMS = 100;

/** Attempts (not retries) before a persistent TransactionConflict gives up. */
export const CONFLICT_RETRY_LIMIT = 5;
export const CONFLICT_BACKOFF_BASE_MS = 15;
export const CONFLICT_BACKOFF_CAP_MS = 400;

export interface TransactOptions {
  /** Injected for tests (fault injection) and the benchmark (call counting). */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /**
   * Fault injection (tests): answers true to have this attempt cancelled with a
   * TransactionConflict instead of sent (DynamoDB Local never raises one), so the retry below runs.
   */
  injectConflict?: (attempt: number) => boolean;
  /**
   * Told of every attempt cancelled for a conflict, with its cause (the TransactionCanceledException,
   * whose reasons name the items that conflicted; an injected conflict names none): the committer
   * counts conflicts per wallet for automatic promotion (shared/persistence/hot/hot-candidates.ts).
   */
  onConflict?: (cause: unknown) => void;
}

/** What one attempt answers when DynamoDB cancelled it for a conflicting transaction: it is tried again. */
export class Conflicted {
  constructor(readonly cause: unknown) {}
}

/**
 * The retry of conflicting transactions, shared by the DynamoDB adapter and the ledger's in-memory
 * fake: an attempt cancelled by a TransactionConflict (or by the injected fault) runs again after a
 * bounded, full-jitter exponential backoff; once CONFLICT_RETRY_LIMIT attempts conflicted, it is
 * TransactionConflictError (409 CONCURRENT_UPDATE, retryable: nothing was written).
 */
export async function retryingConflicts<T>(
  attemptOnce: () => Promise<T | Conflicted>,
  options: TransactOptions = {},
): Promise<{ result: T; attempts: number }> {
  const sleep = options.sleep ?? ((ms: number) => new Promise((resolve) => setTimeout(resolve, ms)));
  const random = options.random ?? Math.random;
  for (let attempt = 1; ; attempt++) {
    const outcome = options.injectConflict?.(attempt)
      ? new Conflicted(new Error('TransactionConflict (injected)'))
      : await attemptOnce();
    if (!(outcome instanceof Conflicted)) return { result: outcome, attempts: attempt };
    countMetric(METRIC.transactionConflicts);
    options.onConflict?.(outcome.cause);
    if (attempt >= CONFLICT_RETRY_LIMIT) {
      countMetric(METRIC.retriesExhausted);
      throw new TransactionConflictError(attempt, outcome.cause);
    }
    const ceiling = Math.min(CONFLICT_BACKOFF_CAP_MS, CONFLICT_BACKOFF_BASE_MS * 2 ** (attempt - 1));
    await sleep(Math.floor(random() * ceiling));
  }
}

export interface TransactResult {
  attempts: number;
  consumedWriteUnits: number;
}

/**
 * Writes every item in ONE TransactWriteItems call. A failed condition is mapped, by the position
 * of the item that failed, to the ApiError its mapper names; a TransactionConflict is retried with
 * bounded, full-jitter exponential backoff. No SDK exception leaves this module.
 */
export async function transactWrite(
  client: DynamoDBDocumentClient,
  writes: TransactWrite[] | ((attempt: number) => TransactWrite[]),
  options: TransactOptions = {},
): Promise<TransactResult> {
  // Writes given as a function are built again for every attempt (a hot debit takes another lane
  // after a TransactionConflict); given as a list, every attempt sends the same items.
  const build = typeof writes === 'function' ? writes : () => writes;
  let attempt = 0;
  const { result: consumedWriteUnits, attempts } = await retryingConflicts(async () => {
    const writes = build(attempt++);
    if (writes.length === 0 || writes.length > MAX_TRANSACT_ITEMS) {
      throw new Error(`a transaction holds 1..${MAX_TRANSACT_ITEMS} items, got ${writes.length}`);
    }
    const items = writes.map(({ item }) => withOldValuesOnFailure(item));
    try {
      const output = await client.send(
        new TransactWriteCommand({ TransactItems: items, ReturnConsumedCapacity: 'TOTAL' }),
      );
      return (output.ConsumedCapacity ?? []).reduce((sum, c) => sum + (c.CapacityUnits ?? 0), 0);
    } catch (error) {
      if (!(error instanceof TransactionCanceledException) && !isCanceled(error)) throw error;
      const reasons = (error as TransactionCanceledException).CancellationReasons ?? [];
      const failed = reasons.findIndex((reason) => reason.Code === 'ConditionalCheckFailed');
      if (failed >= 0) {
        const mapper = writes[failed]?.onConditionFailed;
        const old = reasons[failed]?.Item;
        const oldItem = old ? unmarshall(old, { wrapNumbers: true }) : undefined;
        if (mapper) throw mapper(oldItem);
        throw new Error(`unmapped condition failure at transaction item ${failed}`);
      }
      const conflict = reasons.some((reason) => reason.Code === 'TransactionConflict');
      if (!conflict)
        throw new Error(`transaction canceled: ${reasons.map((r) => r.Code).join(', ')}`, { cause: error });
      return new Conflicted(error);
    }
  }, options);
  // Per operation (the edge's operation id, a worker's name): what a write costs, charted per stage.
  countMetric(METRIC.consumedWriteUnits, { operation: currentOperation() }, consumedWriteUnits);
  return { attempts, consumedWriteUnits };
}

function isCanceled(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && (error as { name?: string }).name === 'TransactionCanceledException'
  );
}

function withOldValuesOnFailure(item: TransactItem): TransactItem {
  if (item.Put?.ConditionExpression) return { Put: { ...item.Put, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' } };
  if (item.Update?.ConditionExpression)
    return { Update: { ...item.Update, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' } };
  if (item.Delete?.ConditionExpression)
    return { Delete: { ...item.Delete, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' } };
  if (item.ConditionCheck)
    return { ConditionCheck: { ...item.ConditionCheck, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' } };
  return item;
}

/** Contention that outlasted the retries: 409 CONCURRENT_UPDATE, retryable (nothing was written). */
export class TransactionConflictError extends ApiError {
  constructor(
    readonly attempts: number,
    cause: unknown,
  ) {
    super('CONCURRENT_UPDATE', undefined, { retryAfter: CONFLICT_RETRY_AFTER_S });
    this.name = 'TransactionConflictError';
    this.cause = cause;
  }
}

export const CONFLICT_RETRY_AFTER_S = 1;
