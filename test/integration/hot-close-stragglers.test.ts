import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { walletKeys } from '../../shared/persistence/entities/wallet.js';
import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../shared/domain/clock.js';
import { newId } from '../../shared/domain/ids.js';
import { createLedgerService } from '../../shared/domain/ledger/ledger-service.js';
import { SYSTEM_ACCOUNTS, systemAccount, walletAccount } from '../../shared/domain/ledger/posting.js';
import { createCommitter } from '../../shared/persistence/change-writer.js';
import { hotKeys } from '../../shared/persistence/entities/hot-wallet.js';
import { organizationEnvironmentCodec } from '../../shared/persistence/entities/organization-environment.js';
import { createHotRouting } from '../../shared/persistence/hot/hot-cache.js';
import { readExactWallet } from '../../shared/persistence/hot/hot-read.js';
import { keeperReads, runKeeperOnce } from '../../shared/persistence/hot/keeper.js';
import { promote } from '../../shared/persistence/hot/promote.js';
import { createLedgerStore } from '../../shared/persistence/ledger-store.js';
import { WRITERS } from '../../shared/persistence/writers/index.js';
import { walletWithBalance } from '../fixtures/hot-world.js';
import { createTestTable } from '../fixtures/table.js';
import { hotCloseWorld } from '../fixtures/hot-close-world.js';

/**
 * Closing a hot agent: a late credit into a closed hot wallet must go back to
 * its payer (decisions.md section 13, docs/api.md "Closing"): "reversed to its payer, never lost".
 * The straggler bounce (shared/persistence/hot/straggler-bounce.ts) writes the payer's leg with the
 * COLD posting writer (conditioned on `attribute_not_exists(hot)`): a payer that is itself hot (the
 * organization's main wallet funding many agents, an agent paying a hot merchant) can never be
 * refunded, the bounce throws HotRoutingStale on every keeper run, and the closed wallet's
 * `finishClose` never comes.
 */
describe('closing a hot wallet, a late credit from a HOT payer', () => {
  it('bounces a late credit whose payer is a hot wallet back to it (REVERSED, payer refunded)', async () => {
    const { table, stale, fresh, ledgerOf, scope, payer, agent, main } = await hotCloseWorld({ hotPayer: true });
    const staleLedger = ledgerOf(stale);
    // The stale process learns both wallets hot and active.
    await staleLedger.post(scope, {
      from: walletAccount(payer.walletId),
      to: walletAccount(agent.walletId),
      amount: new Big('1.00'),
    });
    const balanceOf = async (walletId: string) => (await readExactWallet(table, walletId))!.balance.toFixed(2);
    expect(await balanceOf(agent.walletId)).toBe('41.00');

    // The agent is deleted: its whole balance swept to the main wallet.
    const at = new Date().toISOString();
    await createCommitter(fresh(), WRITERS).commit([
      {
        type: 'posting',
        posting: {
          transactionId: newId('transaction'),
          type: 'SWEEP',
          ...scope,
          currency: 'USD',
          legs: [
            {
              account: walletAccount(agent.walletId),
              amount: new Big('-41'),
              close: { expectedBalance: new Big('41'), set: { status: 'FROZEN', deletedAt: at } },
            },
            { account: walletAccount(main.walletId), amount: new Big('41') },
          ],
          createdAt: at,
          attributes: {
            from: agent.walletId,
            to: main.walletId,
            amount: '41.00',
            fee: '0.00',
            status: 'POSTED',
            postedAt: at,
          },
          record: 'create',
        },
      },
    ]);
    const payerBefore = await balanceOf(payer.walletId);

    // A payment from the hot payer, routed by a cache older than the close, lands in the closed inbox.
    const late = await staleLedger.post(scope, {
      from: walletAccount(payer.walletId),
      to: walletAccount(agent.walletId),
      amount: new Big('2.00'),
    });
    expect(await balanceOf(payer.walletId)).toBe(new Big(payerBefore).minus(2).toFixed(2));

    // The keeper's safety net: the straggler goes back to its payer.
    const run = await runKeeperOnce(table, agent.walletId, systemClock).catch((error: unknown) => error);
    expect(run).not.toBeInstanceOf(Error);
    expect((await createLedgerStore(table).getJournalRecord(late.id))?.status).toBe('REVERSED');
    expect(await balanceOf(payer.walletId)).toBe(payerBefore);
    const left = await Promise.all(
      [0, 1].map(
        async (g) =>
          (
            await table.client.send(
              new GetCommand({
                TableName: table.tableName,
                Key: hotKeys.inboxItem(agent.walletId, g, late.id),
                ConsistentRead: true,
              }),
            )
          ).Item,
      ),
    );
    expect(left).toEqual([undefined, undefined]);
  });
});

/**
 * The same safety net when the payer's own agent was deleted between its payment and the bounce
 * (both within the settle window): the bounce's credit to the payer is refused (a closed wallet
 * takes nothing), `bounce` answers false on every run, the straggler stays in the closed wallet's
 * inbox for good (stranded money in a deleted wallet) and `finishClose` never comes. The money
 * should reach a live wallet (e.g. the payer's organization main wallet, as its sweep did).
 */
describe('closing a hot wallet, a late credit whose payer is deleted meanwhile', () => {
  it('does not leave the late credit stranded in the closed inbox', async () => {
    const { table, stale, fresh, ledgerOf, scope, payer, agent, main } = await hotCloseWorld();
    // The payer's organization's main wallet of the environment (where its deletion sweeps).
    await table.client.send(
      new PutCommand({
        TableName: table.tableName,
        Item: organizationEnvironmentCodec.toItem({ ...scope, mainWalletId: main.walletId, walletCount: 3 }),
      }),
    );
    const staleLedger = ledgerOf(stale);
    await staleLedger.post(scope, {
      from: walletAccount(payer.walletId),
      to: walletAccount(agent.walletId),
      amount: new Big('1.00'),
    });
    const balanceOf = async (walletId: string) => (await readExactWallet(table, walletId))!.balance.toFixed(2);
    const close = (walletId: string, amount: string, at: string) =>
      createCommitter(fresh(), WRITERS).commit([
        {
          type: 'posting',
          posting: {
            transactionId: newId('transaction'),
            type: 'SWEEP',
            ...scope,
            currency: 'USD',
            legs: [
              {
                account: walletAccount(walletId),
                amount: new Big(amount).times(-1),
                close: { expectedBalance: new Big(amount), set: { status: 'FROZEN', deletedAt: at } },
              },
              { account: walletAccount(main.walletId), amount: new Big(amount) },
            ],
            createdAt: at,
            attributes: {
              from: walletId,
              to: main.walletId,
              amount: new Big(amount).toFixed(2),
              fee: '0.00',
              status: 'POSTED',
              postedAt: at,
            },
            record: 'create',
          },
        },
      ]);
    await close(agent.walletId, '41', new Date().toISOString());
    // Late: lands in the closed agent's inbox; then the payer's own agent is deleted (its 47.00 swept).
    const late = await staleLedger.post(scope, {
      from: walletAccount(payer.walletId),
      to: walletAccount(agent.walletId),
      amount: new Big('2.00'),
    });
    await close(payer.walletId, await balanceOf(payer.walletId), new Date().toISOString());
    const mainBefore = await balanceOf(main.walletId);
    expect(mainBefore).toBe('88.00');

    await runKeeperOnce(table, agent.walletId, systemClock);
    // The 2.00 left the closed agent's inbox for the payer organization's main wallet (reversed), not stranded.
    const store = createLedgerStore(table);
    const record = await store.getJournalRecord(late.id);
    expect(record?.status).toBe('REVERSED');
    const reversal = await store.getJournalRecord(record!.reversedBy!);
    expect([reversal?.type, reversal?.from, reversal?.to, reversal?.amount]).toEqual([
      'REVERSAL',
      agent.walletId,
      main.walletId,
      '2.00',
    ]);
    expect(await balanceOf(main.walletId)).toBe('90.00');
    expect(await balanceOf(payer.walletId)).toBe('0.00');
    // A second keeper run (a duplicated keeper) moves nothing more.
    await runKeeperOnce(table, agent.walletId, systemClock);
    expect(await balanceOf(main.walletId)).toBe('90.00');
    const left = await Promise.all(
      [0, 1].map(
        async (g) =>
          (
            await table.client.send(
              new GetCommand({
                TableName: table.tableName,
                Key: hotKeys.inboxItem(agent.walletId, g, late.id),
                ConsistentRead: true,
              }),
            )
          ).Item,
      ),
    );
    expect(left).toEqual([undefined, undefined]);
  });
});

describe('closing a hot wallet, a straggler that cannot be bounced yet', () => {
  it('is logged and kept for the next run; the keeper run does not throw and bounces the others', async () => {
    const table = await createTestTable();
    const staleClock = { now: Date.now() };
    const stale = { ...table, hot: createHotRouting({ reads: keeperReads(table), now: () => staleClock.now }) };
    const fresh = () => ({ ...table, hot: createHotRouting({ reads: keeperReads(table) }) });
    const ledgerOf = (context: typeof stale) =>
      createLedgerService({ store: createLedgerStore(context), clock: systemClock, ids: newId });
    const frozen = await walletWithBalance(table, '0');
    const live = await walletWithBalance(table, '0');
    const agent = await walletWithBalance(table, '0');
    const main = await walletWithBalance(table, '0');
    const scope = { organizationId: frozen.organizationId, environment: 'SANDBOX' as const };
    const ledger = ledgerOf(fresh());
    for (const walletId of [frozen.walletId, live.walletId, agent.walletId])
      await ledger.post(scope, {
        from: systemAccount(SYSTEM_ACCOUNTS.sandboxFunding),
        to: walletAccount(walletId),
        amount: new Big('10'),
        type: 'FUNDING',
      });
    await promote(table, agent.walletId, { partitions: 2, lanes: 2 }, systemClock);
    await runKeeperOnce(table, agent.walletId, systemClock);
    const staleLedger = ledgerOf(stale);
    await staleLedger.post(scope, {
      from: walletAccount(live.walletId),
      to: walletAccount(agent.walletId),
      amount: new Big('1'),
    });
    const balanceOf = async (walletId: string) => (await readExactWallet(table, walletId))!.balance.toFixed(2);
    const at = new Date().toISOString();
    await createCommitter(fresh(), WRITERS).commit([
      {
        type: 'posting',
        posting: {
          transactionId: newId('transaction'),
          type: 'SWEEP',
          ...scope,
          currency: 'USD',
          legs: [
            {
              account: walletAccount(agent.walletId),
              amount: new Big('-11'),
              close: { expectedBalance: new Big('11'), set: { status: 'FROZEN', deletedAt: at } },
            },
            { account: walletAccount(main.walletId), amount: new Big('11') },
          ],
          createdAt: at,
          attributes: {
            from: agent.walletId,
            to: main.walletId,
            amount: '11.00',
            fee: '0.00',
            status: 'POSTED',
            postedAt: at,
          },
          record: 'create',
        },
      },
    ]);
    const lateOf = (walletId: string) =>
      staleLedger.post(scope, {
        from: walletAccount(walletId),
        to: walletAccount(agent.walletId),
        amount: new Big('2'),
      });
    const stuck = await lateOf(frozen.walletId);
    const bounced = await lateOf(live.walletId);
    const setStatus = (walletId: string, status: string) =>
      table.client.send(
        new UpdateCommand({
          TableName: table.tableName,
          Key: walletKeys.primary(walletId),
          UpdateExpression: 'SET #status = :status',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':status': status },
        }),
      );
    // A frozen payer takes no credit: its refund waits.
    await setStatus(frozen.walletId, 'FROZEN');

    await expect(runKeeperOnce(table, agent.walletId, systemClock)).resolves.not.toThrow();
    const store = createLedgerStore(table);
    expect((await store.getJournalRecord(bounced.id))?.status).toBe('REVERSED');
    expect((await store.getJournalRecord(stuck.id))?.status).toBe('POSTED');
    expect([await balanceOf(live.walletId), await balanceOf(frozen.walletId)]).toEqual(['9.00', '8.00']);

    // Resumed: the next run bounces it, exactly once.
    await setStatus(frozen.walletId, 'ACTIVE');
    await runKeeperOnce(table, agent.walletId, systemClock);
    await runKeeperOnce(table, agent.walletId, systemClock);
    expect((await store.getJournalRecord(stuck.id))?.status).toBe('REVERSED');
    expect([await balanceOf(live.walletId), await balanceOf(frozen.walletId)]).toEqual(['9.00', '10.00']);
  });
});
