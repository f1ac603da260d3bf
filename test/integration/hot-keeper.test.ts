import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import Big from 'big.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixedClock, systemClock } from '../../shared/domain/clock.js';
import { exactBalances, hotInvariants, unfoldedOf } from '../../shared/domain/ledger/hot/hot-balances.js';
import { toNumberAttribute } from '../../shared/persistence/client.js';
import { hotKeys } from '../../shared/persistence/entities/hot-wallet.js';
import { walletKeys } from '../../shared/persistence/entities/wallet.js';
import { foldAll, foldIntoMain, foldPartition } from '../../shared/persistence/hot/fold-moves.js';
import { PENDING_ATTRIBUTE } from '../../shared/persistence/hot/hot-items.js';
import { readExactWallet, readHotWallet } from '../../shared/persistence/hot/hot-read.js';
import { promote } from '../../shared/persistence/hot/promote.js';
import { createAgentStore } from '../../shared/persistence/agent-store.js';
import { createWalletStore } from '../../shared/persistence/wallet-store.js';
import { putInboxCredit, walletWithBalance } from '../fixtures/hot-world.js';
import { createTestTable } from '../fixtures/table.js';

/** The keeper's fold moves and the exact read of a hot wallet against DynamoDB Local. */
describe('hot wallet keeper: promote, folds, exact read', () => {
  let table: Awaited<ReturnType<typeof createTestTable>>;
  beforeAll(async () => {
    table = await createTestTable();
  });

  const exact = async (walletId: string) => {
    const parts = await readHotWallet(table, walletId);
    if (!parts) throw new Error('not hot');
    expect(hotInvariants(parts)).toEqual([]);
    return exactBalances(parts).balance.toFixed(8);
  };

  it('promotes a wallet: accumulators, lanes, then hot on main; a second promotion changes nothing', async () => {
    const { walletId } = await walletWithBalance(table, '10.00');
    const config = await promote(table, walletId, { partitions: 4, lanes: 3 }, systemClock);
    expect(config).toMatchObject({ state: 'HOT', partitions: 4, lanes: 3 });
    const parts = await readHotWallet(table, walletId);
    expect(parts?.partitions.map((p) => p.partition)).toEqual([0, 1, 2, 3]);
    expect(parts?.lanes.map((l) => [l.lane, l.status, l.available.toFixed()])).toEqual([
      [0, 'ACTIVE', '0'],
      [1, 'ACTIVE', '0'],
      [2, 'ACTIVE', '0'],
    ]);
    expect(parts?.main.seq).toBe(0);
    expect(await promote(table, walletId, { partitions: 8, lanes: 8 }, systemClock)).toEqual(config);
    expect((await readExactWallet(table, walletId))?.balance.toFixed(2)).toBe('10.00');
  });

  it('refuses what cannot be promoted: a missing wallet, bad sizes', async () => {
    await expect(promote(table, 'wallet_missing', { partitions: 2, lanes: 2 }, systemClock)).rejects.toMatchObject({
      code: 'WALLET_NOT_FOUND',
    });
    const { walletId } = await walletWithBalance(table, '1.00');
    await expect(promote(table, walletId, { partitions: 0, lanes: 2 }, systemClock)).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
    });
    await expect(promote(table, walletId, { partitions: 2, lanes: 65 }, systemClock)).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
    });
  });

  it('counts inbox credits exactly, and each fold step keeps the exact balance', async () => {
    const { walletId } = await walletWithBalance(table, '5.00');
    await promote(table, walletId, { partitions: 2, lanes: 1 }, systemClock);
    for (const amount of ['0.01', '1.10', '2.345678', '3.00']) await putInboxCredit(table, walletId, 2, amount);
    expect(await exact(walletId)).toBe('11.45567800');
    const parts = await readHotWallet(table, walletId);
    expect(unfoldedOf(parts!).toFixed()).toBe('6.455678');

    const folded = (await foldPartition(table, walletId, 0)) + (await foldPartition(table, walletId, 1));
    expect(folded).toBe(4);
    expect(await exact(walletId)).toBe('11.45567800');
    const afterFold = await readHotWallet(table, walletId);
    expect(afterFold?.partitions.every((p) => p.inbox.length === 0)).toBe(true);
    expect(afterFold?.main.balance.toFixed(2)).toBe('5.00');

    expect((await foldIntoMain(table, walletId)).toFixed()).toBe('6.455678');
    const main = await readHotWallet(table, walletId);
    expect(main?.main.balance.toFixed()).toBe('11.455678');
    expect(main?.main.seq).toBe(1);
    for (const p of main!.partitions)
      expect(main!.main.folded[p.partition]?.toFixed() ?? '0').toBe(p.credited.toFixed());
    // Nothing more to fold: no write, no seq.
    expect((await foldIntoMain(table, walletId)).toFixed()).toBe('0');
    expect(await exact(walletId)).toBe('11.45567800');
    expect((await readExactWallet(table, walletId))?.balance.toFixed()).toBe('11.455678');
  });

  it('folds more than one transaction holds (98 credits a fold)', async () => {
    const { walletId } = await walletWithBalance(table, '0');
    await promote(table, walletId, { partitions: 1, lanes: 1 }, systemClock);
    await Promise.all(Array.from({ length: 120 }, () => putInboxCredit(table, walletId, 1, '0.01')));
    expect(await foldPartition(table, walletId, 0)).toBe(98);
    expect(await exact(walletId)).toBe('1.20000000');
    expect((await foldAll(table, walletId)).toFixed(2)).toBe('1.20');
    const parts = await readHotWallet(table, walletId);
    expect(parts?.main.balance.toFixed(2)).toBe('1.20');
    expect(parts?.partitions[0]?.entryCount).toBe(120);
  });

  it('two keepers folding at once fold every credit exactly once', async () => {
    const { walletId } = await walletWithBalance(table, '1.00');
    await promote(table, walletId, { partitions: 3, lanes: 1 }, systemClock);
    await Promise.all(
      Array.from({ length: 60 }, (_, i) => putInboxCredit(table, walletId, 3, `0.${String(i + 1).padStart(2, '0')}`)),
    );
    // Σ 0.01..0.60 = 18.30
    await Promise.all([foldAll(table, walletId), foldAll(table, walletId), foldPartition(table, walletId, 1)]);
    await foldAll(table, walletId);
    const parts = await readHotWallet(table, walletId);
    expect(parts?.main.balance.toFixed(2)).toBe('19.30');
    expect(parts?.partitions.reduce((n, p) => n + p.entryCount + p.inbox.length, 0)).toBe(60);
    expect(await exact(walletId)).toBe('19.30000000');
  });

  it('the seqlock read stays exact while keepers fold under it', async () => {
    const { walletId } = await walletWithBalance(table, '2.00');
    await promote(table, walletId, { partitions: 4, lanes: 2 }, systemClock);
    await Promise.all(Array.from({ length: 40 }, () => putInboxCredit(table, walletId, 4, '0.25')));
    const reads: string[] = [];
    const folding = (async () => {
      for (let i = 0; i < 4; i++) {
        await Promise.all([0, 1, 2, 3].map((g) => foldPartition(table, walletId, g)));
        await foldIntoMain(table, walletId);
      }
    })();
    const reading = (async () => {
      for (let i = 0; i < 8; i++) reads.push(await exact(walletId));
    })();
    await Promise.all([folding, reading]);
    expect(new Set(reads)).toEqual(new Set(['12.00000000']));
  });

  it('a crash between the two fold steps leaves the balance exact; the next keeper finishes', async () => {
    const { walletId } = await walletWithBalance(table, '0');
    await promote(table, walletId, { partitions: 1, lanes: 1 }, systemClock);
    await putInboxCredit(table, walletId, 1, '7.77');
    await foldPartition(table, walletId, 0); // ...and the keeper dies here
    expect(await exact(walletId)).toBe('7.77000000');
    expect((await foldAll(table, walletId)).toFixed(2)).toBe('7.77');
    expect((await readHotWallet(table, walletId))?.main.balance.toFixed(2)).toBe('7.77');
  });

  it('a fold costs one accumulator write, plain deletes and pending removed (no transaction)', async () => {
    const { walletId } = await walletWithBalance(table, '0');
    await promote(table, walletId, { partitions: 1, lanes: 1 }, systemClock);
    for (let i = 0; i < 30; i++) await putInboxCredit(table, walletId, 1, '0.10');
    const sent: string[] = [];
    const counted = {
      ...table,
      client: {
        send: (command: { constructor: { name: string } }) => {
          sent.push(command.constructor.name);
          return table.client.send(command as never);
        },
      } as unknown as typeof table.client,
    };
    expect(await foldPartition(counted, walletId, 0)).toBe(30);
    expect(sent.filter((name) => name !== 'QueryCommand').sort()).toEqual([
      'BatchWriteCommand',
      'BatchWriteCommand',
      'UpdateCommand',
      'UpdateCommand',
    ]);
    const acc = await table.client.send(
      new GetCommand({ TableName: table.tableName, Key: hotKeys.accumulator(walletId, 0), ConsistentRead: true }),
    );
    expect(acc.Item?.[PENDING_ATTRIBUTE]).toBeUndefined();
    expect(String(acc.Item?.entryCount)).toBe('30');
    expect(await exact(walletId)).toBe('3.00000000');
  });

  it('a fold that died after its credit (pending listed, items not deleted) stays exact; the next fold ends it', async () => {
    const { walletId } = await walletWithBalance(table, '0');
    await promote(table, walletId, { partitions: 1, lanes: 1 }, systemClock);
    for (let i = 0; i < 3; i++) await putInboxCredit(table, walletId, 1, '1.25');
    const dying = {
      ...table,
      client: {
        send: (command: { constructor: { name: string } }) =>
          command.constructor.name === 'BatchWriteCommand'
            ? Promise.reject(new Error('the keeper died'))
            : table.client.send(command as never),
      } as unknown as typeof table.client,
    };
    await expect(foldPartition(dying, walletId, 0)).rejects.toThrow('the keeper died');
    // Credited (3.75 on the accumulator, listed pending) and the items still there: counted once.
    const parts = (await readHotWallet(table, walletId))!;
    expect(parts.partitions[0]?.credited.toFixed(2)).toBe('3.75');
    expect(parts.partitions[0]?.inbox).toEqual([]);
    expect(await exact(walletId)).toBe('3.75000000');
    // A new credit lands; the next fold deletes the pending items first, then folds the new one.
    await putInboxCredit(table, walletId, 1, '0.50');
    expect(await exact(walletId)).toBe('4.25000000');
    expect(await foldPartition(table, walletId, 0)).toBe(1);
    const acc = await table.client.send(
      new GetCommand({ TableName: table.tableName, Key: hotKeys.accumulator(walletId, 0), ConsistentRead: true }),
    );
    expect(acc.Item?.[PENDING_ATTRIBUTE]).toBeUndefined();
    expect(String(acc.Item?.entryCount)).toBe('4');
    expect((await foldAll(table, walletId)).toFixed(2)).toBe('4.25');
    expect(await exact(walletId)).toBe('4.25000000');
  });

  it('never folds into a closed wallet', async () => {
    const { walletId } = await walletWithBalance(table, '0');
    await promote(table, walletId, { partitions: 1, lanes: 1 }, systemClock);
    await putInboxCredit(table, walletId, 1, '1.00');
    await foldPartition(table, walletId, 0);
    await table.client.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: walletKeys.primary(walletId),
        UpdateExpression: 'SET deletedAt = :at',
        ExpressionAttributeValues: { ':at': new Date().toISOString() },
      }),
    );
    expect((await foldIntoMain(table, walletId)).toFixed()).toBe('0');
    expect((await readHotWallet(table, walletId))?.main.balance.toFixed()).toBe('0');
  });

  it('promotion sets each limited period quota not granted yet: the limit less what main spent', async () => {
    const { walletId, organizationId } = await walletWithBalance(table, '100.00');
    const clock = fixedClock(new Date('2026-11-28T10:00:00Z'));
    const now = clock.now().toISOString();
    await table.store.commit([
      {
        type: 'putPolicy',
        isNew: true,
        policy: {
          id: 'policy_hot_1',
          walletId,
          organizationId,
          environment: 'SANDBOX',
          name: 'daily',
          maxTransactionAmount: new Big(50),
          requireHumanApproval: false,
          dailyLimit: new Big(30),
          status: 'ACTIVE',
          createdAt: now,
          updatedAt: now,
          version: 1,
        },
      },
    ]);
    await table.client.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: walletKeys.primary(walletId),
        UpdateExpression: 'SET #s = :s',
        ExpressionAttributeNames: { '#s': 'spend#DAY#2026-11-28' },
        ExpressionAttributeValues: { ':s': toNumberAttribute(new Big('12.5')) },
      }),
    );
    await promote(table, walletId, { partitions: 1, lanes: 1 }, clock);
    const parts = await readHotWallet(table, walletId);
    expect(parts?.main.ungranted['DAY#2026-11-28']?.toFixed(2)).toBe('17.50');
    const lane = await table.client.send(
      new GetCommand({ TableName: table.tableName, Key: hotKeys.lane(walletId, 0), ConsistentRead: true }),
    );
    expect(lane.Item?.entityType).toBe('HOT_LANE');
  });

  it('every view of the wallet store shows the exact balance: the wallet, the list, the statement anchor', async () => {
    const { walletId, organizationId } = await walletWithBalance(table, '3.00');
    await promote(table, walletId, { partitions: 2, lanes: 2 }, systemClock);
    await putInboxCredit(table, walletId, 2, '1.23456789');
    const store = createWalletStore(table);
    expect((await store.getWallet(walletId))?.balance.toFixed(8)).toBe('4.23456789');
    const listed = await store.listWallets(organizationId, 'SANDBOX', { limit: 10 });
    expect(listed.items.map((w) => w.balance.toFixed(8))).toEqual(['4.23456789']);
    // No journal records in this world: the statement is empty, its anchor the exact balance.
    expect((await store.getStatement(walletId, { limit: 5 })).items).toEqual([]);
    expect((await createAgentStore(table).getWallet(walletId))?.balance.toFixed(8)).toBe('4.23456789');
  });
});
