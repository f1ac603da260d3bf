import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import { fixedClock, systemClock } from '../../shared/domain/clock.js';
import { newId } from '../../shared/domain/ids.js';
import { walletAccount } from '../../shared/domain/ledger/posting.js';
import { HOT_SETTLE_MS } from '../../shared/domain/ledger/hot/keeper-plan.js';
import { createCommitter } from '../../shared/persistence/change-writer.js';
import { hotKeys } from '../../shared/persistence/entities/hot-wallet.js';
import { walletKeys } from '../../shared/persistence/entities/wallet.js';
import { foldPartition } from '../../shared/persistence/hot/fold-moves.js';
import { readExactWallet, readHotWallet } from '../../shared/persistence/hot/hot-read.js';
import { runKeeperOnce } from '../../shared/persistence/hot/keeper.js';
import type { ItemKey } from '../../shared/persistence/item.js';
import { checkLedger } from '../../shared/persistence/ledger-check.js';
import { createLedgerStore } from '../../shared/persistence/ledger-store.js';
import { WRITERS } from '../../shared/persistence/writers/index.js';
import { hotCloseWorld } from '../fixtures/hot-close-world.js';

/**
 * Closing a hot wallet (decisions.md section 13; shared/persistence/hot/hot-close.ts) against
 * DynamoDB Local: the agent deletion's sweep (or its empty close) freezes and drains the lanes,
 * folds, then closes with the whole exact balance swept; a credit routed from a cache older than
 * the close lands in the inbox, is never folded, and goes back to its payer; after the settle
 * window the keeper removes the lanes and `hot`. The ledger check stays clean throughout.
 */
describe('hot wallets: closing one', () => {
  async function world() {
    const { table, stale, fresh, ledgerOf, ledger, scope, payer, agent, main } = await hotCloseWorld();
    const item = async (key: ItemKey) =>
      (await table.client.send(new GetCommand({ TableName: table.tableName, Key: key, ConsistentRead: true }))).Item;
    const balanceOf = async (walletId: string) => (await readExactWallet(table, walletId))!.balance.toFixed(8);
    const problems = async () => (await checkLedger(table.client, table.tableName)).problems;
    return { table, stale, fresh, ledgerOf, ledger, scope, payer, agent, main, item, balanceOf, problems };
  }

  /** The agent deletion's sweep (agent-lifecycle.ts): the whole balance to the main wallet, the wallet closed. */
  const sweep = (
    context: Parameters<typeof createCommitter>[0],
    scope: { organizationId: string; environment: 'SANDBOX' },
    from: string,
    to: string,
    amount: string,
    at: string,
  ) =>
    createCommitter(context, WRITERS).commit([
      {
        type: 'posting',
        posting: {
          transactionId: newId('transaction'),
          type: 'SWEEP',
          ...scope,
          currency: 'USD',
          legs: [
            {
              account: walletAccount(from),
              amount: new Big(amount).times(-1),
              close: { expectedBalance: new Big(amount), set: { status: 'FROZEN', deletedAt: at } },
            },
            { account: walletAccount(to), amount: new Big(amount) },
          ],
          createdAt: at,
          attributes: { from, to, amount, fee: '0.00', status: 'POSTED', postedAt: at },
          record: 'create',
        },
      },
    ]);

  it('sweeps the exact balance of lanes, folds and inbox to the main wallet; a late credit goes back to its payer; the keeper finishes after the settle window', async () => {
    const w = await world();
    const staleLedger = w.ledgerOf(w.stale);
    // Money on every kind of sub-item: lanes (the keeper's top-up), an unfolded credit, a lane debit.
    await staleLedger.post(w.scope, {
      from: walletAccount(w.payer.walletId),
      to: walletAccount(w.agent.walletId),
      amount: new Big('5.25'),
    });
    await w.ledger.post(w.scope, {
      from: walletAccount(w.agent.walletId),
      to: walletAccount(w.payer.walletId),
      amount: new Big('3.10'),
    });
    expect(await w.balanceOf(w.agent.walletId)).toBe('42.15000000');

    const at = new Date().toISOString();
    // A process that believes the wallet cold: the close's hot guard routes it again.
    await sweep(w.fresh(), w.scope, w.agent.walletId, w.main.walletId, '42.15', at);

    const main = (await w.item(walletKeys.primary(w.agent.walletId)))!;
    expect(main).toMatchObject({ status: 'FROZEN', deletedAt: at });
    expect(new Big(main.balance).toFixed(2)).toBe('0.00');
    const closed = (await readHotWallet(w.table, w.agent.walletId))!;
    expect(closed.lanes.map((lane) => [lane.status, lane.available.toFixed(2)])).toEqual([
      ['FROZEN', '0.00'],
      ['FROZEN', '0.00'],
    ]);
    for (const g of [0, 1]) expect((await w.item(hotKeys.accumulator(w.agent.walletId, g)))?.closedAt).toBe(at);
    expect(await w.balanceOf(w.main.walletId)).toBe('42.15000000');
    expect(await w.balanceOf(w.payer.walletId)).toBe('47.85000000');
    expect(await w.problems()).toEqual([]);

    // Out: refused at once. In, from a process whose cache is older than the close: it lands, is never folded, and is bounced.
    await expect(
      w.ledger.post(w.scope, {
        from: walletAccount(w.agent.walletId),
        to: walletAccount(w.payer.walletId),
        amount: new Big('1'),
      }),
    ).rejects.toMatchObject({ code: 'WALLET_FROZEN' });
    const late = await staleLedger.post(w.scope, {
      from: walletAccount(w.payer.walletId),
      to: walletAccount(w.agent.walletId),
      amount: new Big('2.00'),
    });
    const partitions = await Promise.all([0, 1].map((g) => foldPartition(w.table, w.agent.walletId, g)));
    expect(partitions).toEqual([0, 0]);
    const run = await runKeeperOnce(w.table, w.agent.walletId, systemClock);
    expect(run.moved).toContain('bounce');
    expect((await createLedgerStore(w.table).getJournalRecord(late.id))?.status).toBe('REVERSED');
    expect(await w.balanceOf(w.payer.walletId)).toBe('47.85000000');
    expect(await w.problems()).toEqual([]);

    // Within the settle window the keeper leaves the lanes; after it, lanes and `hot` go.
    expect((await runKeeperOnce(w.table, w.agent.walletId, systemClock)).moved).toEqual([]);
    const later = fixedClock(new Date(Date.parse(at) + HOT_SETTLE_MS + 1000));
    expect((await runKeeperOnce(w.table, w.agent.walletId, later)).moved).toEqual(['finishClose']);
    expect((await w.item(walletKeys.primary(w.agent.walletId)))?.hot).toBeUndefined();
    expect(await w.item(hotKeys.lane(w.agent.walletId, 0))).toBeUndefined();
    expect(await readHotWallet(w.table, w.agent.walletId)).toBeUndefined();
    expect(await w.balanceOf(w.agent.walletId)).toBe('0.00000000');
    expect(await w.problems()).toEqual([]);
  });

  it('closes an empty hot wallet (no sweep: the wallet update of an agent with nothing left)', async () => {
    const w = await world();
    await w.ledger.post(w.scope, {
      from: walletAccount(w.agent.walletId),
      to: walletAccount(w.payer.walletId),
      amount: new Big('40'),
    });
    const at = new Date().toISOString();
    await createCommitter(w.fresh(), WRITERS).commit([
      {
        type: 'updateWallet',
        walletId: w.agent.walletId,
        trigger: 'close',
        set: { status: 'FROZEN', deletedAt: at },
        expectedBalance: new Big(0),
      },
    ]);
    expect(await w.item(walletKeys.primary(w.agent.walletId))).toMatchObject({ status: 'FROZEN', deletedAt: at });
    expect(await w.balanceOf(w.payer.walletId)).toBe('90.00000000');
    expect(await w.problems()).toEqual([]);
  });

  it('refuses, writing nothing, a close whose balance is not the exact one or with money held; a second close finds it closed', async () => {
    const w = await world();
    const at = new Date().toISOString();
    await expect(sweep(w.fresh(), w.scope, w.agent.walletId, w.main.walletId, '39.99', at)).rejects.toMatchObject({
      code: 'INVALID_STATE',
      message: expect.stringContaining('balance changed'),
    });
    const untouched = async () => {
      expect(await w.item(walletKeys.primary(w.agent.walletId))).toMatchObject({ status: 'ACTIVE' });
      expect((await w.item(walletKeys.primary(w.agent.walletId)))?.deletedAt).toBeUndefined();
      expect((await w.item(hotKeys.lane(w.agent.walletId, 0)))?.status).toBe('ACTIVE');
      expect(await w.balanceOf(w.agent.walletId)).toBe('40.00000000');
    };
    await untouched();

    await w.table.client.send(
      new UpdateCommand({
        TableName: w.table.tableName,
        Key: walletKeys.primary(w.agent.walletId),
        UpdateExpression: 'SET heldBalance = :held',
        ExpressionAttributeValues: { ':held': 1 },
      }),
    );
    await expect(sweep(w.fresh(), w.scope, w.agent.walletId, w.main.walletId, '40', at)).rejects.toMatchObject({
      code: 'INVALID_STATE',
      message: expect.stringContaining('held or clearing'),
    });
    await untouched();
    await w.table.client.send(
      new UpdateCommand({
        TableName: w.table.tableName,
        Key: walletKeys.primary(w.agent.walletId),
        UpdateExpression: 'SET heldBalance = :zero',
        ExpressionAttributeValues: { ':zero': 0 },
      }),
    );

    await sweep(w.fresh(), w.scope, w.agent.walletId, w.main.walletId, '40', at);
    await expect(
      createCommitter(w.fresh(), WRITERS).commit([
        {
          type: 'updateWallet',
          walletId: w.agent.walletId,
          trigger: 'close',
          set: { status: 'FROZEN', deletedAt: at },
          expectedBalance: new Big(0),
        },
      ]),
    ).rejects.toMatchObject({ code: 'INVALID_STATE' });
    expect(await w.balanceOf(w.main.walletId)).toBe('40.00000000');
    expect(await w.problems()).toEqual([]);
  });
});
