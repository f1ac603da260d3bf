import {
  ConditionalCheckFailedException,
  TransactionCanceledException,
  type CancellationReason,
} from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../shared/domain/errors.js';
import {
  TransactionConflictError,
  CONFLICT_BACKOFF_BASE_MS,
  CONFLICT_BACKOFF_CAP_MS,
  CONFLICT_RETRY_LIMIT,
  MAX_TRANSACT_ITEMS,
  transactWrite,
  type TransactWrite,
} from '../../shared/persistence/transact.js';

const TABLE = 'allowance-test';

function canceled(reasons: CancellationReason[]): TransactionCanceledException {
  return new TransactionCanceledException({ message: 'x', $metadata: {}, CancellationReasons: reasons });
}

const conflict = () => canceled([{ Code: 'None' }, { Code: 'TransactionConflict' }]);

/** A document client whose `send` plays the given outcomes in order (an Error is thrown). */
function fakeClient(...outcomes: (Error | Record<string, unknown>)[]) {
  const sent: TransactWriteCommand[] = [];
  const send = vi.fn(async (command: TransactWriteCommand) => {
    sent.push(command);
    const outcome = outcomes.shift() ?? {};
    if (outcome instanceof Error) throw outcome;
    return outcome;
  });
  return { client: { send } as unknown as DynamoDBDocumentClient, send, sent };
}

function debit(mapper?: TransactWrite['onConditionFailed']): TransactWrite {
  return {
    item: {
      Update: {
        TableName: TABLE,
        Key: { PK: 'WALLET#wal_a', SK: 'WALLET' },
        UpdateExpression: 'SET balance = balance - :amount',
        ConditionExpression: 'balance >= :amount',
        ExpressionAttributeValues: { ':amount': 5 },
      },
    },
    ...(mapper ? { onConditionFailed: mapper } : {}),
  };
}

const putEntry: TransactWrite = { item: { Put: { TableName: TABLE, Item: { PK: 'TXN#txn_1', SK: 'TXN' } } } };

const noSleep = () => vi.fn(async (_ms: number) => {});

describe('transactWrite', () => {
  it('writes all items in one call and reports one attempt and the consumed capacity', async () => {
    const { client, send, sent } = fakeClient({ ConsumedCapacity: [{ CapacityUnits: 2 }, { CapacityUnits: 4 }] });
    const result = await transactWrite(client, [debit(), putEntry]);
    expect(result).toEqual({ attempts: 1, consumedWriteUnits: 6 });
    expect(send).toHaveBeenCalledTimes(1);
    expect(sent[0]?.input.TransactItems).toHaveLength(2);
  });

  it('asks for the old item on condition failure for conditional items only', async () => {
    const { client, sent } = fakeClient({});
    await transactWrite(client, [debit(), putEntry]);
    const [update, put] = sent[0]?.input.TransactItems ?? [];
    expect(update?.Update?.ReturnValuesOnConditionCheckFailure).toBe('ALL_OLD');
    expect(put?.Put?.ReturnValuesOnConditionCheckFailure).toBeUndefined();
  });

  it('calls the mapper of the failed item with the unmarshalled old item, numbers kept exact', async () => {
    // Prepare
    const failure = canceled([
      { Code: 'None' },
      { Code: 'ConditionalCheckFailed', Item: { balance: { N: '5.5' }, status: { S: 'ACTIVE' } } },
    ]);
    const { client } = fakeClient(failure);
    const first = vi.fn(() => new ApiError('WALLET_FROZEN'));
    const second = vi.fn(
      (old: Record<string, unknown> | undefined) =>
        new ApiError('INSUFFICIENT_FUNDS', undefined, { balance: (old?.balance as { value: string }).value }),
    );
    // Act
    const outcome = transactWrite(client, [debit(first), debit(second)]);
    // Assess
    await expect(outcome).rejects.toMatchObject({ code: 'INSUFFICIENT_FUNDS', details: { balance: '5.5' } });
    expect(first).not.toHaveBeenCalled();
    expect(second).toHaveBeenCalledTimes(1);
    const old = second.mock.calls[0]?.[0] as Record<string, unknown>;
    expect((old.balance as { value: string }).value).toBe('5.5');
    expect(typeof old.balance).not.toBe('number');
    expect(old.status).toBe('ACTIVE');
  });

  it('gives the mapper undefined when the failed item did not exist', async () => {
    const { client } = fakeClient(canceled([{ Code: 'ConditionalCheckFailed' }]));
    const mapper = vi.fn(() => new ApiError('WALLET_NOT_FOUND'));
    await expect(transactWrite(client, [debit(mapper)])).rejects.toMatchObject({ code: 'WALLET_NOT_FOUND' });
    expect(mapper).toHaveBeenCalledWith(undefined);
  });

  it('does not retry a condition failure', async () => {
    const { client, send } = fakeClient(canceled([{ Code: 'ConditionalCheckFailed' }]), {});
    const sleep = noSleep();
    await expect(
      transactWrite(client, [debit(() => new ApiError('INSUFFICIENT_FUNDS'))], { sleep }),
    ).rejects.toBeInstanceOf(ApiError);
    expect(send).toHaveBeenCalledTimes(1);
    expect(sleep).not.toHaveBeenCalled();
  });

  it('throws a plain error, not the SDK exception, for a condition failure without a mapper', async () => {
    const { client } = fakeClient(canceled([{ Code: 'None' }, { Code: 'ConditionalCheckFailed' }]));
    const outcome = transactWrite(client, [debit(() => new ApiError('INVALID_STATE')), debit()]);
    await expect(outcome).rejects.toThrow(/item 1/);
    await expect(outcome).rejects.not.toBeInstanceOf(TransactionCanceledException);
  });

  it('recognizes a cancellation by its name when the class instance differs', async () => {
    const foreign = Object.assign(new Error('canceled'), {
      name: 'TransactionCanceledException',
      CancellationReasons: [{ Code: 'ConditionalCheckFailed', Item: { balance: { N: '1' } } }],
    });
    const { client } = fakeClient(foreign);
    await expect(transactWrite(client, [debit(() => new ApiError('INSUFFICIENT_FUNDS'))])).rejects.toMatchObject({
      code: 'INSUFFICIENT_FUNDS',
    });
  });

  it('succeeds on the third attempt after two conflicts', async () => {
    const { client, send } = fakeClient(conflict(), conflict(), { ConsumedCapacity: [{ CapacityUnits: 2 }] });
    const sleep = noSleep();
    const result = await transactWrite(client, [debit(), putEntry], { sleep, random: () => 0.5 });
    expect(result.attempts).toBe(3);
    expect(send).toHaveBeenCalledTimes(3);
    expect(sleep).toHaveBeenCalledTimes(2);
  });

  it('sends the same items on every retry', async () => {
    const { client, sent } = fakeClient(conflict(), {});
    await transactWrite(client, [debit(), putEntry], { sleep: noSleep() });
    expect(sent[1]?.input.TransactItems).toEqual(sent[0]?.input.TransactItems);
  });

  it('gives up after CONFLICT_RETRY_LIMIT attempts with a TransactionConflictError, not the SDK exception', async () => {
    // Prepare
    const failures = Array.from({ length: CONFLICT_RETRY_LIMIT + 2 }, conflict);
    const last = failures[CONFLICT_RETRY_LIMIT - 1];
    const { client, send } = fakeClient(...failures);
    const sleep = noSleep();
    // Act
    const outcome = transactWrite(client, [debit()], { sleep, random: () => 0.999 });
    // Assess
    await expect(outcome).rejects.toBeInstanceOf(TransactionConflictError);
    await expect(outcome).rejects.toMatchObject({
      attempts: CONFLICT_RETRY_LIMIT,
      cause: last,
      code: 'CONCURRENT_UPDATE',
      status: 409,
      details: { retryAfter: 1 },
    });
    expect(send).toHaveBeenCalledTimes(CONFLICT_RETRY_LIMIT);
    expect(sleep).toHaveBeenCalledTimes(CONFLICT_RETRY_LIMIT - 1);
  });

  it('waits a jittered, exponentially growing delay bounded by the cap', async () => {
    const { client } = fakeClient(...Array.from({ length: CONFLICT_RETRY_LIMIT }, conflict));
    const sleep = noSleep();
    await expect(transactWrite(client, [debit()], { sleep, random: () => 0.999999 })).rejects.toBeInstanceOf(
      TransactionConflictError,
    );
    const delays = sleep.mock.calls.map(([ms]) => ms);
    delays.forEach((ms, i) => {
      const ceiling = Math.min(CONFLICT_BACKOFF_CAP_MS, CONFLICT_BACKOFF_BASE_MS * 2 ** i);
      expect(Number.isInteger(ms)).toBe(true);
      expect(ms).toBeGreaterThanOrEqual(0);
      expect(ms).toBeLessThan(ceiling);
      expect(ms).toBeLessThanOrEqual(CONFLICT_BACKOFF_CAP_MS);
    });
    for (let i = 1; i < delays.length; i++) expect(delays[i]).toBeGreaterThan(delays[i - 1] ?? 0);
  });

  it('uses the random source for the jitter (full jitter down to zero)', async () => {
    const { client } = fakeClient(conflict(), conflict(), {});
    const sleep = noSleep();
    await transactWrite(client, [debit()], { sleep, random: () => 0 });
    expect(sleep.mock.calls.map(([ms]) => ms)).toEqual([0, 0]);
  });

  it('fails a cancellation of another kind without retrying, keeping the SDK exception as the cause', async () => {
    const throttled = canceled([{ Code: 'ThrottlingError' }]);
    const { client, send } = fakeClient(throttled, {});
    const outcome = transactWrite(client, [debit()], { sleep: noSleep() });
    await expect(outcome).rejects.not.toBeInstanceOf(TransactionCanceledException);
    await expect(outcome).rejects.toMatchObject({ cause: throttled });
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('rethrows a non-cancellation error untouched', async () => {
    const network = new Error('socket hang up');
    const conditional = new ConditionalCheckFailedException({ message: 'single', $metadata: {} });
    for (const error of [network, conditional]) {
      const { client, send } = fakeClient(error, {});
      const mapper = vi.fn(() => new ApiError('INVALID_STATE'));
      await expect(transactWrite(client, [debit(mapper)], { sleep: noSleep() })).rejects.toBe(error);
      expect(send).toHaveBeenCalledTimes(1);
      expect(mapper).not.toHaveBeenCalled();
    }
  });

  it('refuses an empty transaction and one above the item limit without calling DynamoDB', async () => {
    const { client, send } = fakeClient();
    await expect(transactWrite(client, [])).rejects.toThrow();
    const tooMany = Array.from({ length: MAX_TRANSACT_ITEMS + 1 }, () => putEntry);
    await expect(transactWrite(client, tooMany)).rejects.toThrow();
    expect(send).not.toHaveBeenCalled();
  });
});
