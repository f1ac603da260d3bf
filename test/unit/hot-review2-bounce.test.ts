import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import { AUDIT } from '../../shared/domain/audit/actions.js';
import { newId } from '../../shared/domain/ids.js';
import { createLedgerService } from '../../shared/domain/ledger/ledger-service.js';
import { partitionOf } from '../../shared/domain/ledger/hot/hot-routing.js';
import { HOT_SETTLE_MS } from '../../shared/domain/ledger/hot/keeper-plan.js';
import { walletAccount } from '../../shared/domain/ledger/posting.js';
import { registerHotWallet } from '../../shared/persistence/hot/hot-candidates.js';
import { createHotRouting } from '../../shared/persistence/hot/hot-cache.js';
import { readHotWallet } from '../../shared/persistence/hot/hot-read.js';
import { keeperReads } from '../../shared/persistence/hot/keeper.js';
import { createLedgerStore } from '../../shared/persistence/ledger-store.js';
import { hotOps } from '../fixtures/hot-property/hot-ops.js';
import { AGENT, centsToAmount, PEER } from '../fixtures/hot-property/oracle.js';
import { clientOps, newHotWorld, scopeOf, type HotWorld } from '../fixtures/hot-property/world.js';
import { createMemoryDynamo } from '../fakes/memory-dynamo/index.js';

/**
 * Review (issue 25, session 3): a straggler into a closed hot wallet goes back to its payer, "never
 * lost" (decisions.md section 13). A bounce its payer refuses (paused meanwhile: WALLET_FROZEN on
 * the credit) waits for a later keeper run (hot-close-stragglers.test.ts). Before finishClose the
 * minute schedule runs it (the wallet is still hot and registered). After finishClose nothing did:
 * the stream's fold of a closed wallet logged the failed bounce and answered success, and the
 * schedule unregistered a wallet without `hot`. Now the fold registers a closed wallet with
 * stragglers left, and the schedule keeps running the keeper over it until its inbox is empty.
 */
async function world(): Promise<HotWorld> {
  const memory = createMemoryDynamo({ tables: ['review2'] });
  return newHotWorld({ client: memory.client, tableName: 'review2' }, new Date('2026-11-28T10:00:00.000Z'));
}

const key = () => `key-${Math.random()}`;

describe('a straggler into a hot wallet closed and finished, from a payer paused meanwhile', () => {
  it.each([
    ['active', false],
    ['paused, then resumed', true],
  ])('is bounced by the production triggers (stream fold, minute schedule), the payer %s', async (_state, paused) => {
    const w = await world();
    const agentId = w.walletIds[AGENT]!;
    const hotMode = w.processes[0]!.services.hotMode;
    expect((await clientOps.fund(w, 0, PEER, centsToAmount(5_000), key())).code).toBe('OK');
    await registerHotWallet(w.table, { walletId: agentId, registeredAt: w.clock.now().toISOString() });
    await hotOps.promote(w.table, agentId, { partitions: 2, lanes: 2 }, w.clock);
    await hotMode.runSchedule();
    // A process whose routing cache never expires (a request that ran past the settle window).
    const frozenAt = w.clock.now().getTime();
    const stale = createLedgerService({
      store: createLedgerStore({
        ...w.table,
        hot: createHotRouting({ reads: keeperReads(w.table), now: () => frozenAt }),
      }),
      clock: w.clock,
      ids: newId,
    });
    const post = (cents: number) =>
      stale.post(scopeOf(w), {
        from: walletAccount(w.walletIds[PEER]!),
        to: walletAccount(agentId),
        amount: new Big(centsToAmount(cents)),
      });
    await post(100);
    await w.processes[0]!.services.agents.remove(w.requester, AUDIT.wallet.close, agentId);
    w.clock.advance(HOT_SETTLE_MS + 1_000);
    await hotMode.runSchedule();
    expect(await readHotWallet(w.table, agentId)).toBeUndefined();

    const late = await post(700);
    if (paused) await w.processes[0]!.services.agents.pause(w.requester, AUDIT.wallet.freeze, w.walletIds[PEER]!);
    // The stream delivers the inbox record: the bounce is refused (payer FROZEN), the fold answers no failure.
    expect(await hotMode.foldPartitions([{ walletId: agentId, partition: partitionOf(late.id, 2) }])).toEqual([]);
    if (paused) await w.processes[0]!.services.agents.resume(w.requester, AUDIT.wallet.unfreeze, w.walletIds[PEER]!);
    for (let minute = 0; minute < 10; minute++) {
      w.clock.advance(60_000);
      await hotMode.runSchedule();
    }
    expect((await createLedgerStore(w.table).getJournalRecord(late.id))?.status).toBe('REVERSED');
  });
});
