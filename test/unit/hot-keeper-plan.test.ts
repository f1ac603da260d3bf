import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import { exactBalances, hotInvariants } from '../../shared/domain/ledger/hot/hot-balances.js';
import type { HotWalletParts, LaneState } from '../../shared/domain/ledger/hot/hot-types.js';
import { HOT_SETTLE_MS, keptPeriodKeys, planKeeper } from '../../shared/domain/ledger/hot/keeper-plan.js';

const now = new Date('2026-11-28T10:00:00Z');
const DAY = 'DAY#2026-11-28';
const b = (value: string | number) => new Big(value);

function lane(index: number, fields: Partial<LaneState> = {}): LaneState {
  return {
    lane: index,
    status: 'ACTIVE',
    environment: 'SANDBOX',
    policyVersion: 0,
    available: b(0),
    quota: {},
    spend: {},
    seq: 0,
    entryCount: 0,
    ...fields,
  };
}

function parts(
  fields: {
    main?: Partial<HotWalletParts['main']>;
    lanes?: LaneState[];
    partitions?: HotWalletParts['partitions'];
  } = {},
): HotWalletParts {
  return {
    walletId: 'wal_1',
    main: {
      hot: { state: 'HOT', partitions: 1, lanes: 2, since: now.toISOString() },
      seq: 3,
      folded: {},
      ungranted: {},
      policyVersion: 0,
      balance: b(100),
      heldBalance: b(0),
      pendingBalance: b(0),
      spend: {},
      status: 'ACTIVE',
      ...fields.main,
    },
    partitions: fields.partitions ?? [{ partition: 0, credited: b(0), seq: 0, entryCount: 0, inbox: [] }],
    lanes: fields.lanes ?? [lane(0), lane(1)],
  };
}

const context = (limits: [string, string][] = []) => ({
  now,
  limits: new Map(limits.map(([k, v]) => [k, b(v)])),
  nextLimits: new Map<string, Big>(),
});

describe('the keeper plan', () => {
  it('folds first: inbox partitions, then the accumulators into main', () => {
    const steps = planKeeper(
      parts({
        partitions: [
          { partition: 0, credited: b(5), seq: 1, entryCount: 1, inbox: [] },
          {
            partition: 1,
            credited: b(0),
            seq: 0,
            entryCount: 0,
            inbox: [{ transactionId: 't', amount: b(1), createdAt: '' }],
          },
        ],
      }),
      context(),
    );
    expect(steps.map((s) => s.kind).slice(0, 2)).toEqual(['fold', 'foldIntoMain']);
  });

  it('tops up empty lanes with 80% of the folded funds, evenly, and nothing when within the slack', () => {
    const [step] = planKeeper(parts(), context());
    expect(step?.kind).toBe('rebalance');
    if (step?.kind !== 'rebalance') return;
    expect(step.lanes.map((l) => l.available.toFixed(2))).toEqual(['40.00', '40.00']);
    expect(step.mainSeq).toBe(3);
    const balanced = parts({
      main: { balance: b(20) },
      lanes: [lane(0, { available: b(38) }), lane(1, { available: b(42) })],
    });
    expect(planKeeper(balanced, context())).toEqual([]);
  });

  it('grants quota from ungranted and never more than ungranted holds', () => {
    const [step] = planKeeper(parts({ main: { ungranted: { [DAY]: b(10) } } }), context([[DAY, '10']]));
    if (step?.kind !== 'rebalance') throw new Error(step?.kind);
    expect(step.lanes.map((l) => l.quota[DAY]?.toFixed(2))).toEqual(['4.00', '4.00']);
  });

  it('re-syncs every lane after a policy change before any other lane move', () => {
    const steps = planKeeper(
      parts({
        main: { policyVersion: 2, ungranted: { [DAY]: b(5) }, spend: { [DAY]: b(3) } },
        lanes: [
          lane(0, { policyVersion: 1, quota: { [DAY]: b(2) }, spend: { [DAY]: b(4) } }),
          lane(1, { policyVersion: 2 }),
        ],
      }),
      context([[DAY, '20']]),
    );
    expect(steps).toHaveLength(1);
    if (steps[0]?.kind !== 'resync') throw new Error(steps[0]?.kind);
    expect(steps[0].ungranted[DAY]?.value.toFixed(2)).toBe('13.00');
    const lowered = planKeeper(
      parts({ main: { policyVersion: 2, spend: { [DAY]: b(30) } }, lanes: [lane(0, { policyVersion: 1 })] }),
      context([[DAY, '20']]),
    );
    if (lowered[0]?.kind !== 'resync') throw new Error(lowered[0]?.kind);
    expect(lowered[0].ungranted[DAY]?.value.toFixed(2)).toBe('0.00');
  });

  it('freezes the lanes of a frozen wallet, bounces instead of folding once closed', () => {
    expect(planKeeper(parts({ main: { status: 'FROZEN' } }), context())[0]).toMatchObject({
      kind: 'laneStatus',
      status: 'FROZEN',
    });
    const closed = parts({
      main: { deletedAt: now.toISOString() },
      partitions: [
        {
          partition: 0,
          credited: b(0),
          seq: 0,
          entryCount: 0,
          inbox: [{ transactionId: 't', amount: b(1), createdAt: '' }],
        },
      ],
    });
    expect(planKeeper(closed, context()).map((s) => s.kind)).toEqual(['bounce']);
  });

  it('finishes a close only after the settle window and once no straggler is left to bounce', () => {
    const closedAt = (at: Date, inbox = false) =>
      parts({
        main: { status: 'FROZEN', deletedAt: at.toISOString() },
        lanes: [lane(0, { status: 'FROZEN' }), lane(1, { status: 'FROZEN' })],
        partitions: [
          {
            partition: 0,
            credited: b(0),
            seq: 0,
            entryCount: 0,
            inbox: inbox ? [{ transactionId: 't', amount: b(1), createdAt: '' }] : [],
          },
        ],
      });
    expect(planKeeper(closedAt(new Date(now.getTime() - 1_000)), context())).toEqual([]);
    const settled = new Date(now.getTime() - HOT_SETTLE_MS);
    expect(planKeeper(closedAt(settled), context())).toEqual([{ kind: 'finishClose' }]);
    expect(planKeeper(closedAt(settled, true), context()).map((s) => s.kind)).toEqual(['bounce']);
  });

  it('finishes a demotion only after the settle window', () => {
    const cooling = (since: Date) =>
      parts({
        main: { hot: { state: 'COOLING', partitions: 1, lanes: 2, since: '', coolingSince: since.toISOString() } },
      });
    expect(planKeeper(cooling(new Date(now.getTime() - 1_000)), context())).toEqual([]);
    expect(planKeeper(cooling(new Date(now.getTime() - HOT_SETTLE_MS)), context())).toEqual([
      { kind: 'finishDemotion' },
    ]);
  });

  it('keeps the current, previous and (near the boundary) next period keys; drops the rest', () => {
    expect(keptPeriodKeys(now).has('DAY#2026-11-27')).toBe(true);
    expect(keptPeriodKeys(now).has('DAY#2026-11-26')).toBe(false);
    expect(keptPeriodKeys(new Date('2026-11-28T23:58:00Z')).has('DAY#2026-11-29')).toBe(true);
    const steps = planKeeper(parts({ main: { ungranted: { 'DAY#2026-11-20': b(1) } } }), context());
    expect(steps[0]).toMatchObject({ kind: 'dropKeys', keys: ['DAY#2026-11-20'] });
  });
});

describe('exact balances and the hot invariants', () => {
  const wallet = parts({
    main: { balance: b('10.5'), folded: { 0: b(3) }, ungranted: { [DAY]: b(6) }, spend: { [DAY]: b(1) } },
    partitions: [
      {
        partition: 0,
        credited: b('4.25'),
        seq: 2,
        entryCount: 3,
        inbox: [{ transactionId: 't', amount: b('0.00000001'), createdAt: '' }],
      },
    ],
    lanes: [lane(0, { available: b(2), quota: { [DAY]: b(2) }, spend: { [DAY]: b(1) } })],
  });

  it('counts main, unfolded credits, the inbox and the lanes once each, to 8 decimals', () => {
    expect(exactBalances(wallet).balance.toFixed(8)).toBe('13.75000001');
  });

  it('holds for a sound wallet, and names each broken rule', () => {
    expect(hotInvariants(wallet, new Map([[DAY, b(10)]]))).toEqual([]);
    expect(hotInvariants(wallet, new Map([[DAY, b(11)]]))[0]).toContain('not the limit 11');
    const broken = parts({
      main: { folded: { 0: b(5) }, deletedAt: now.toISOString() },
      partitions: [
        {
          partition: 0,
          credited: b(4),
          seq: 1,
          entryCount: 1,
          inbox: [{ transactionId: 't', amount: b(1), createdAt: '' }],
        },
      ],
      lanes: [lane(0, { available: b(-1) })],
    });
    const problems = hotInvariants(broken).join('\n');
    expect(problems).toContain('folded#0 5 above its credited 4');
    expect(problems).toContain('of a closed wallet');
    expect(problems).toContain('lane 0 available is negative');
  });
});
