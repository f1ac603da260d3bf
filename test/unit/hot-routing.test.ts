import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import { fnv1a, laneSequence, partitionOf, planHotWallet } from '../../shared/domain/ledger/hot/hot-routing.js';
import type { HotConfig } from '../../shared/domain/ledger/hot/hot-types.js';
import { captureLegs, holdLegs, voidLegs } from '../../shared/domain/ledger/movements.js';
import { transferLegs, walletAccount, type Leg } from '../../shared/domain/ledger/posting.js';
import { createHotRouting, HOT_CONFIG_TTL_MS } from '../../shared/persistence/hot/hot-cache.js';

const hot = (state: HotConfig['state'] = 'HOT'): HotConfig => ({ state, partitions: 8, lanes: 4, since: '2026-11-28' });
const of = (walletId: string, legs: Leg[]) =>
  legs.filter((leg) => leg.account.kind === 'WALLET' && leg.account.walletId === walletId);

describe('hot routing', () => {
  it('hashes with FNV-1a 32-bit (the published test vectors)', () => {
    expect(fnv1a('')).toBe(0x811c9dc5);
    expect(fnv1a('a')).toBe(0xe40c292c);
    expect(fnv1a('foobar')).toBe(0xbf9cf968);
  });

  it('puts a movement id always in the same partition, within 0..G-1, spread over all of them', () => {
    const seen = new Set<number>();
    for (let i = 0; i < 400; i++) {
      const id = `txn_${i}`;
      const g = partitionOf(id, 8);
      expect(partitionOf(id, 8)).toBe(g);
      expect(g).toBeGreaterThanOrEqual(0);
      expect(g).toBeLessThan(8);
      seen.add(g);
    }
    expect(seen.size).toBe(8);
  });

  it('tries the sticky lane first, then the next two, wrapping; fewer when the wallet has fewer lanes', () => {
    expect(laneSequence('txn_1', 4, 3)).toEqual([3, 0, 1]);
    expect(laneSequence('txn_1', 2, 1)).toEqual([1, 0]);
    expect(laneSequence('txn_1', 1)).toEqual([0]);
    const [first] = laneSequence('txn_x', 64);
    expect(laneSequence('txn_x', 64)).toEqual([first, (first! + 1) % 64, (first! + 2) % 64]);
  });

  it('routes an available credit to the inbox of its partition and an available debit to a lane', () => {
    const legs = transferLegs(walletAccount('wal_a'), walletAccount('wal_b'), new Big('2.5'));
    const payee = planHotWallet('txn_1', 'wal_b', of('wal_b', legs), hot());
    expect(payee.main).toEqual([]);
    expect(payee.inbox).toEqual({ partition: partitionOf('txn_1', 8), amount: new Big('2.5') });
    const payer = planHotWallet('txn_1', 'wal_a', of('wal_a', legs), hot());
    expect(payer).toEqual({ walletId: 'wal_a', main: [], debit: new Big('2.5') });
  });

  it('takes a hold from a lane and puts the held bucket on main; capture and void act on main only', () => {
    const hold = planHotWallet('txn_h', 'wal_a', holdLegs('wal_a', new Big(5)), hot());
    expect(hold.debit).toEqual(new Big(5));
    expect(hold.main.map((leg) => leg.bucket)).toEqual(['held']);
    const capture = captureLegs({ walletId: 'wal_a', amount: new Big(5) }, new Big(3), walletAccount('wal_b'));
    const captured = planHotWallet('txn_c', 'wal_a', of('wal_a', capture), hot());
    expect(captured).toEqual({ walletId: 'wal_a', main: of('wal_a', capture) });
    const voided = planHotWallet('txn_v', 'wal_a', voidLegs({ walletId: 'wal_a', amount: new Big(5) }), hot());
    expect(voided.inbox).toBeUndefined();
    expect(voided.debit).toBeUndefined();
    expect(voided.main).toHaveLength(2);
  });

  it('keeps pending credits and a close on main, and a COOLING wallet credited on main', () => {
    const pending: Leg[] = [{ account: walletAccount('wal_b'), amount: new Big(4), bucket: 'pending' }];
    expect(planHotWallet('txn_p', 'wal_b', pending, hot()).main).toEqual(pending);
    const close: Leg[] = [
      { account: walletAccount('wal_b'), amount: new Big(-4), close: { expectedBalance: new Big(4), set: {} } },
    ];
    expect(planHotWallet('txn_s', 'wal_b', close, hot())).toEqual({ walletId: 'wal_b', main: close });
    const credit = of('wal_b', transferLegs(walletAccount('wal_a'), walletAccount('wal_b'), new Big(1)));
    expect(planHotWallet('txn_c', 'wal_b', credit, hot('COOLING'))).toEqual({ walletId: 'wal_b', main: credit });
  });
});

describe('hot routing cache', () => {
  const main = (hotValue?: object) => ({
    status: 'ACTIVE',
    environment: 'SANDBOX',
    ...(hotValue ? { hot: hotValue } : {}),
  });

  it('knows a wallet hot for at most the TTL, then asks for it to be read again; a cold item forgets it', () => {
    let now = 1_000;
    const routing = createHotRouting({ now: () => now });
    expect(routing.entryOf('wal_a')).toBeUndefined();
    expect(routing.expired(['wal_a'])).toEqual([]);
    routing.remember('wal_a', main({ state: 'HOT', partitions: '4', lanes: '2', since: 'x' }));
    expect(routing.entryOf('wal_a')?.hot).toEqual({ state: 'HOT', partitions: 4, lanes: 2, since: 'x' });
    now += HOT_CONFIG_TTL_MS + 1;
    expect(routing.entryOf('wal_a')).toBeUndefined();
    expect(routing.expired(['wal_a', 'wal_b'])).toEqual(['wal_a']);
    routing.remember('wal_a', main());
    expect(routing.expired(['wal_a'])).toEqual([]);
  });

  it('has no sticky lane unless asked (a process serving many requests at once)', () => {
    expect(createHotRouting().stickyLane('wal_a', 4)).toBeUndefined();
  });

  it('keeps a sticky lane per wallet and moves it on a refusal', () => {
    const routing = createHotRouting({ random: () => 0.5, stickyLanes: true });
    expect(routing.stickyLane('wal_a', 4)).toBe(2);
    routing.moveSticky('wal_a', 4);
    expect(routing.stickyLane('wal_a', 4)).toBe(3);
    routing.moveSticky('wal_a', 4);
    expect(routing.stickyLane('wal_a', 4)).toBe(0);
  });
});
