import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  GetCommand,
  NumberValue,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../shared/domain/errors.js';
import { newId } from '../../shared/domain/ids.js';
import { createLedgerService } from '../../shared/domain/ledger/ledger-service.js';
import { SYSTEM_ACCOUNTS, systemAccount, walletAccount } from '../../shared/domain/ledger/posting.js';
import { newWallet } from '../../shared/domain/wallets/wallet-rules.js';
import { createCommitter } from '../../shared/persistence/change-writer.js';
import { checkLedger } from '../../shared/persistence/ledger-check.js';
import { createLedgerStore } from '../../shared/persistence/ledger-store.js';
import type { TableContext } from '../../shared/persistence/table-context.js';
import { TransactionConflictError } from '../../shared/persistence/transact.js';
import { WRITERS } from '../../shared/persistence/writers/index.js';
import { createMemoryDynamo, type WriteRecord } from '../fakes/memory-dynamo/index.js';

const TABLE = 'memory';
const clock = { now: () => new Date('2026-11-28T10:00:00.000Z') };

function world(options: { conflicts?: () => boolean } = {}) {
  const writes: WriteRecord[] = [];
  const dynamo = createMemoryDynamo({
    tables: [TABLE],
    hooks: {
      onWrite: (record) => writes.push(record),
      ...(options.conflicts ? { onTransaction: () => (options.conflicts!() ? 'conflict' : 'ok') } : {}),
    },
  });
  const table: TableContext = {
    client: dynamo.client,
    tableName: TABLE,
    transact: { sleep: async () => undefined },
  };
  return { dynamo, table, writes };
}

async function wallets(table: TableContext, count: number) {
  const scope = { organizationId: newId('organization'), environment: 'SANDBOX' as const };
  const ids = Array.from({ length: count }, () => newId('wallet'));
  const at = clock.now().toISOString();
  await createCommitter(table, WRITERS).commit(
    ids.map((id) => ({
      type: 'createWallet' as const,
      wallet: newWallet({ id, ...scope, name: id, walletType: 'ORG', isMain: false, createdAt: at }),
    })),
  );
  return { scope, ids };
}

describe('memory-dynamo runs the real ledger code', () => {
  it('posts fundings and payments exactly, refuses an overdraft with the mapped error, and the ledger check passes', async () => {
    const { table, dynamo } = world();
    const { scope, ids } = await wallets(table, 2);
    const store = createLedgerStore(table);
    const ledger = createLedgerService({ store, clock, ids: newId });
    await ledger.post(scope, {
      type: 'FUNDING',
      from: systemAccount(SYSTEM_ACCOUNTS.sandboxFunding),
      to: walletAccount(ids[0]!),
      amount: new Big('0.1'),
    });
    await ledger.post(scope, {
      type: 'FUNDING',
      from: systemAccount(SYSTEM_ACCOUNTS.sandboxFunding),
      to: walletAccount(ids[0]!),
      amount: new Big('0.2'),
    });
    await ledger.post(scope, { from: walletAccount(ids[0]!), to: walletAccount(ids[1]!), amount: new Big('0.3') });
    const refused = await ledger
      .post(scope, { from: walletAccount(ids[0]!), to: walletAccount(ids[1]!), amount: new Big('0.01') })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).code).toBe('INSUFFICIENT_FUNDS');
    const [from, to] = await Promise.all(ids.map((id) => store.getWallet(id)));
    expect(from!.balance.toFixed(8)).toBe('0.00000000');
    expect(to!.balance.toFixed(8)).toBe('0.30000000');
    const raw = await dynamo.send(new GetCommand({ TableName: TABLE, Key: { PK: `WALLET#${ids[1]}`, SK: 'WALLET' } }));
    expect((raw.Item as Record<string, unknown>).balance).toBeInstanceOf(NumberValue);
    const report = await checkLedger(table.client, table.tableName);
    expect(report.problems).toEqual([]);
    expect(report.environments.SANDBOX!.wallets).toBe(2);
  });

  it('answers a held item with TransactionConflict: transactWrite retries, then gives up with CONCURRENT_UPDATE', async () => {
    let conflicts = 2;
    const { table } = world({ conflicts: () => conflicts-- > 0 });
    const { scope, ids } = await wallets(table, 1);
    const ledger = createLedgerService({ store: createLedgerStore(table), clock, ids: newId });
    const funding = {
      type: 'FUNDING' as const,
      from: systemAccount(SYSTEM_ACCOUNTS.sandboxFunding),
      to: walletAccount(ids[0]!),
      amount: new Big('5'),
    };
    await ledger.post(scope, funding);
    conflicts = 100;
    await expect(ledger.post(scope, funding)).rejects.toBeInstanceOf(TransactionConflictError);
  });

  it('bills a ledger transfer of a cold wallet 2 WCU per item in the transaction (journal and two wallets), the way DynamoDB does', async () => {
    const { table, writes } = world();
    const { scope, ids } = await wallets(table, 2);
    const ledger = createLedgerService({ store: createLedgerStore(table), clock, ids: newId });
    await ledger.post(scope, {
      type: 'FUNDING',
      from: systemAccount(SYSTEM_ACCOUNTS.sandboxFunding),
      to: walletAccount(ids[0]!),
      amount: new Big('10'),
    });
    writes.length = 0;
    await ledger.post(scope, { from: walletAccount(ids[0]!), to: walletAccount(ids[1]!), amount: new Big('1') });
    expect(writes.every((w) => w.transactional)).toBe(true);
    expect(writes.map((w) => w.SK).sort()).toEqual(['TXN', 'WALLET', 'WALLET']);
    expect(writes.reduce((sum, w) => sum + w.units, 0)).toBe(6);
  });
});

describe('memory-dynamo evaluates expressions and transactions as DynamoDB does', () => {
  const key = { PK: 'A', SK: 'B' };

  it('adds exact decimals with SET and ADD, if_not_exists, REMOVE, and answers ALL_NEW', async () => {
    const { dynamo } = world();
    await dynamo.send(new PutCommand({ TableName: TABLE, Item: { ...key, n: NumberValue.from('0.1'), gone: 'x' } }));
    const out = await dynamo.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: key,
        UpdateExpression: 'SET n = n + :v, #m = if_not_exists(#m, :z) - :v, nested = :map REMOVE gone ADD c :one',
        ExpressionAttributeNames: { '#m': 'spend#DAY#2026' },
        ExpressionAttributeValues: {
          ':v': NumberValue.from('0.2'),
          ':z': NumberValue.from('100'),
          ':map': { state: 'HOT' },
          ':one': 1,
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    const item = out.Attributes as Record<string, unknown>;
    expect((item.n as NumberValue).value).toBe('0.3');
    expect((item['spend#DAY#2026'] as NumberValue).value).toBe('99.8');
    expect((item.c as NumberValue).value).toBe('1');
    expect(item.gone).toBeUndefined();
    expect(item.nested).toEqual({ state: 'HOT' });
  });

  it('evaluates conditions: AND/OR/NOT, IN, BETWEEN, begins_with, <> on a missing attribute, nested paths', async () => {
    const { dynamo } = world();
    await dynamo.send(new PutCommand({ TableName: TABLE, Item: { ...key, s: 'ACTIVE', n: 5, hot: { state: 'HOT' } } }));
    const check = (condition: string, values: Record<string, unknown> = {}) =>
      dynamo
        .send(
          new UpdateCommand({
            TableName: TABLE,
            Key: key,
            UpdateExpression: 'SET touched = :t',
            ConditionExpression: condition,
            ExpressionAttributeValues: { ':t': true, ...values },
          }),
        )
        .then(
          () => true,
          (error: { name: string }) => {
            if (error.name !== 'ConditionalCheckFailedException') throw error;
            return false;
          },
        );
    expect(
      await check('s IN (:a, :b) AND n BETWEEN :lo AND :hi', { ':a': 'X', ':b': 'ACTIVE', ':lo': 1, ':hi': 5 }),
    ).toBe(true);
    expect(await check('NOT (n >= :six) AND begins_with(s, :p)', { ':six': 6, ':p': 'ACT' })).toBe(true);
    expect(await check('missing <> :x', { ':x': 1 })).toBe(true);
    expect(await check('missing = :x OR missing < :x', { ':x': 1 })).toBe(false);
    expect(await check('hot.state = :h AND attribute_exists(hot)', { ':h': 'HOT' })).toBe(true);
    expect(await check('attribute_not_exists(hot) OR n < :x', { ':x': NumberValue.from('4.99999999') })).toBe(false);
    expect(await check('n = :x', { ':x': '5' })).toBe(false);
    await expect(check('n = :x', { ':x': 5, ':unused': 1 })).rejects.toMatchObject({ name: 'ValidationException' });
  });

  it('cancels a whole transaction when one condition fails, with the reason and the old item', async () => {
    const { dynamo } = world();
    await dynamo.send(new PutCommand({ TableName: TABLE, Item: { ...key, n: 1 } }));
    const error = await dynamo
      .send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: TABLE, Item: { PK: 'C', SK: 'D' }, ConditionExpression: 'attribute_not_exists(PK)' } },
            {
              Update: {
                TableName: TABLE,
                Key: key,
                UpdateExpression: 'ADD n :m',
                ConditionExpression: 'n >= :one',
                ExpressionAttributeValues: { ':m': -2, ':one': 2 },
                ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
              },
            },
          ],
        }),
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransactionCanceledException);
    const reasons = (error as TransactionCanceledException).CancellationReasons!;
    expect(reasons.map((r) => r.Code)).toEqual(['None', 'ConditionalCheckFailed']);
    expect(reasons[1]!.Item).toEqual({ PK: { S: 'A' }, SK: { S: 'B' }, n: { N: '1' } });
    expect((await dynamo.send(new GetCommand({ TableName: TABLE, Key: { PK: 'C', SK: 'D' } }))).Item).toBeUndefined();
  });

  it('queries base and index partitions in key order, pages with Limit and ExclusiveStartKey, filters after the limit', async () => {
    const { dynamo } = world();
    for (const sk of ['TXN#3', 'TXN#1', 'TXN#2', 'WALLET'])
      await dynamo.send(
        new PutCommand({
          TableName: TABLE,
          Item: { PK: 'W', SK: sk, GSI2PK: 'IDX', GSI2SK: `2026#${4 - Number(sk.slice(4) || 0)}`, odd: sk !== 'TXN#2' },
        }),
      );
    const first = await dynamo.send(
      new QueryCommand({
        TableName: TABLE,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :p)',
        ExpressionAttributeValues: { ':pk': 'W', ':p': 'TXN#' },
        Limit: 2,
      }),
    );
    expect((first.Items as { SK: string }[]).map((i) => i.SK)).toEqual(['TXN#1', 'TXN#2']);
    const second = await dynamo.send(
      new QueryCommand({
        TableName: TABLE,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :p)',
        ExpressionAttributeValues: { ':pk': 'W', ':p': 'TXN#' },
        Limit: 2,
        ExclusiveStartKey: first.LastEvaluatedKey as Record<string, unknown>,
      }),
    );
    expect((second.Items as { SK: string }[]).map((i) => i.SK)).toEqual(['TXN#3']);
    expect(second.LastEvaluatedKey).toBeUndefined();
    const index = await dynamo.send(
      new QueryCommand({
        TableName: TABLE,
        IndexName: 'GSI2',
        KeyConditionExpression: 'GSI2PK = :pk',
        FilterExpression: 'odd = :t',
        ExpressionAttributeValues: { ':pk': 'IDX', ':t': true },
        ScanIndexForward: false,
      }),
    );
    expect((index.Items as { SK: string }[]).map((i) => i.SK)).toEqual(['WALLET', 'TXN#1', 'TXN#3']);
    expect(index.ScannedCount).toBe(4);
  });
});
