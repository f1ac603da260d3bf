import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import { fixedClock, systemClock } from '../../shared/domain/clock.js';
import { newId } from '../../shared/domain/ids.js';
import { partitionOf } from '../../shared/domain/ledger/hot/hot-routing.js';
import { HOT_SETTLE_MS } from '../../shared/domain/ledger/hot/keeper-plan.js';
import { walletAccount } from '../../shared/domain/ledger/posting.js';
import { createCommitter } from '../../shared/persistence/change-writer.js';
import { readExactWallet, readHotWallet } from '../../shared/persistence/hot/hot-read.js';
import { runKeeperOnce } from '../../shared/persistence/hot/keeper.js';
import { checkLedger } from '../../shared/persistence/ledger-check.js';
import { createLedgerStore } from '../../shared/persistence/ledger-store.js';
import { WRITERS } from '../../shared/persistence/writers/index.js';
import { hotCloseWorld } from '../fixtures/hot-close-world.js';

/**
 * Movements racing the close of a hot wallet (decisions.md section 13), against DynamoDB Local: a
 * credit routed by a cache older than the close lands in the closed wallet's inbox and the keeper
 * sends it back to its payer, whatever kind of movement it was.
 */
describe('closing a hot wallet, movements racing it', () => {
  async function world() {
    const { table, stale, fresh, ledgerOf, scope, payer, agent, main } = await hotCloseWorld();
    const wallet = async (walletId: string) => {
      const read = (await readExactWallet(table, walletId))!;
      return { balance: read.balance.toFixed(2), held: read.heldBalance.toFixed(2) };
    };
    const problems = async () => (await checkLedger(table.client, table.tableName)).problems;
    /** The agent deletion's sweep (agent-lifecycle.ts): the whole balance to the main wallet, the wallet closed. */
    const close = (amount: string, at = new Date().toISOString()) => {
      return createCommitter(fresh(), WRITERS).commit([
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
                amount: new Big(amount).times(-1),
                close: { expectedBalance: new Big(amount), set: { status: 'FROZEN', deletedAt: at } },
              },
              { account: walletAccount(main.walletId), amount: new Big(amount) },
            ],
            createdAt: at,
            attributes: {
              from: agent.walletId,
              to: main.walletId,
              amount,
              fee: '0.00',
              status: 'POSTED',
              postedAt: at,
            },
            record: 'create',
          },
        },
      ]);
    };
    return { table, scope, payer, agent, main, staleLedger: ledgerOf(stale), wallet, problems, close };
  }

  it("sends a capture that lands after the close back to the hold's wallet as available money (the hold stays captured)", async () => {
    const w = await world();
    // The stale process learns the agent hot and active; the payer holds 10.00.
    await w.staleLedger.post(w.scope, {
      from: walletAccount(w.payer.walletId),
      to: walletAccount(w.agent.walletId),
      amount: new Big('1.00'),
    });
    const hold = await w.staleLedger.hold(w.scope, { walletId: w.payer.walletId, amount: new Big('10.00') });
    expect(await w.wallet(w.payer.walletId)).toEqual({ balance: '39.00', held: '10.00' });
    await w.close('41');

    // 6.00 of the hold captured into the closed agent (a cache older than its close): 4.00 released to the payer.
    const capture = await w.staleLedger.capture(w.scope, hold.id, {
      to: walletAccount(w.agent.walletId),
      amount: new Big('6.00'),
    });
    expect(await w.wallet(w.payer.walletId)).toEqual({ balance: '43.00', held: '0.00' });
    expect(await w.wallet(w.agent.walletId)).toEqual({ balance: '6.00', held: '0.00' });

    const run = await runKeeperOnce(w.table, w.agent.walletId, systemClock);
    expect(run.moved).toContain('bounce');
    const store = createLedgerStore(w.table);
    const captured = await store.getJournalRecord(capture.id);
    expect(captured?.status).toBe('REVERSED');
    const bounce = await store.getJournalRecord(captured!.reversedBy!);
    expect([bounce?.type, bounce?.from, bounce?.to, bounce?.amount]).toEqual([
      'REVERSAL',
      w.agent.walletId,
      w.payer.walletId,
      '6.00',
    ]);
    // The 6.00 is available again on the payer; nothing comes back into held (the hold is settled).
    expect(await w.wallet(w.payer.walletId)).toEqual({ balance: '49.00', held: '0.00' });
    expect((await store.getJournalRecord(hold.id))?.status).toBe('CAPTURED');
    expect(await w.wallet(w.agent.walletId)).toEqual({ balance: '0.00', held: '0.00' });
    expect(await w.problems()).toEqual([]);
  });

  it('bounces a straggler that lands after the keeper finished the close, in a partition nothing was ever folded from', async () => {
    const w = await world();
    // An id per partition of the agent's 2 (partitionOf: the inbox a credit of that id lands in).
    const idIn = (partition: number) => {
      for (;;) {
        const id = newId('transaction');
        if (partitionOf(id, 2) === partition) return id;
      }
    };
    // The stale process learns the agent hot; its one credit goes through partition 0 (folded by the close).
    await w.staleLedger.post(w.scope, {
      from: walletAccount(w.payer.walletId),
      to: walletAccount(w.agent.walletId),
      amount: new Big('1.00'),
      movementId: idIn(0),
    });
    const at = new Date().toISOString();
    await w.close('41', at);
    const later = fixedClock(new Date(Date.parse(at) + HOT_SETTLE_MS + 1000));
    expect((await runKeeperOnce(w.table, w.agent.walletId, later)).moved).toEqual(['finishClose']);
    expect(await readHotWallet(w.table, w.agent.walletId)).toBeUndefined();

    // Later still, from the cache older than the close, into partition 1 (no credit ever folded from it).
    const late = await w.staleLedger.post(w.scope, {
      from: walletAccount(w.payer.walletId),
      to: walletAccount(w.agent.walletId),
      amount: new Big('2.00'),
      movementId: idIn(1),
    });
    expect(await w.wallet(w.payer.walletId)).toEqual({ balance: '47.00', held: '0.00' });

    const run = await runKeeperOnce(w.table, w.agent.walletId, later);
    expect(run.moved).toContain('bounce');
    expect((await createLedgerStore(w.table).getJournalRecord(late.id))?.status).toBe('REVERSED');
    expect(await w.wallet(w.payer.walletId)).toEqual({ balance: '49.00', held: '0.00' });
    expect(await w.problems()).toEqual([]);
  });
});
