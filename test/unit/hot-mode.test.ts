import { marshall } from '@aws-sdk/util-dynamodb';
import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import { AUDIT } from '../../shared/domain/audit/actions.js';
import type { AuditChange } from '../../shared/domain/audit/ports.js';
import { fixedClock } from '../../shared/domain/clock.js';
import { ApiError } from '../../shared/domain/errors.js';
import {
  HOT_MODE_LANES,
  HOT_MODE_PARTITIONS,
  HOT_PROMOTION_CONFLICTS_PER_MINUTE,
  minuteOf,
  previousMinuteOf,
  promotionCandidates,
  type ConflictCount,
} from '../../shared/domain/hot-mode/hot-mode-rules.js';
import { HOT_PROMOTION_ACTOR, REGISTRATION_GRACE_MS } from '../../shared/domain/hot-mode/hot-mode-schedule.js';
import { createHotModeService } from '../../shared/domain/hot-mode/hot-mode-service.js';
import { presentHotModeWallet } from '../../shared/domain/hot-mode/hot-mode-view.js';
import type { HotModeStore } from '../../shared/domain/hot-mode/ports.js';
import type { HotConfig } from '../../shared/domain/ledger/hot/hot-types.js';
import { HOT_INBOX_ENTITY, hotKeys } from '../../shared/persistence/entities/hot-wallet.js';
import { walletKeys } from '../../shared/persistence/entities/wallet.js';
import { conflictedWallets } from '../../shared/persistence/hot/hot-candidates.js';
import { inboxPartitionOf } from '../../shared/persistence/hot/hot-inbox-stream.js';
import { OPERATOR_PERMISSION, type RequestContext } from '../../shared/domain/tenancy.js';
import type { Wallet } from '../../shared/domain/types.js';

type AuditEntryChange = Extract<AuditChange, { type: 'audit' }>;

const START = new Date('2026-11-28T03:30:20.000Z');

const operator: RequestContext = {
  principal: {
    kind: 'OPERATOR',
    keyId: 'key_operator',
    organizationId: null,
    environment: null,
    permissions: [OPERATOR_PERMISSION],
    walletId: null,
  },
  actor: { actorType: 'API_KEY', actorId: 'key_operator', ipAddress: '203.0.113.1' },
  requestId: 'req-operator',
};

function walletOf(id: string, over: Partial<Wallet> = {}): Wallet {
  return {
    id,
    organizationId: 'org_a',
    environment: 'SANDBOX',
    name: 'Main',
    walletType: 'ORG',
    isMain: true,
    status: 'ACTIVE',
    balance: new Big('100'),
    pendingBalance: new Big(0),
    heldBalance: new Big(0),
    currency: 'USD',
    createdAt: START.toISOString(),
    ...over,
  };
}

/** A test double of the hot-mode store: the keeper's moves as plain state changes. */
function world() {
  const clock = fixedClock(START);
  const wallets = new Map<string, Wallet>();
  const hot = new Map<string, HotConfig>();
  const registry = new Map<string, string>();
  const conflicts = new Map<string, ConflictCount[]>();
  const audits: AuditEntryChange[] = [];
  const kept: string[] = [];
  const folded: string[] = [];
  /** Closed wallets with inbox items whose bounce was refused so far. */
  const stragglers = new Set<string>();
  const store: HotModeStore = {
    getWallet: async (id) => wallets.get(id),
    getHotConfig: async (id) => hot.get(id),
    hasStragglers: async (id) => stragglers.has(id),
    async promote(wallet, sizing) {
      registry.set(wallet.id, clock.now().toISOString());
      const config: HotConfig = { state: 'HOT', since: clock.now().toISOString(), ...sizing, ...hot.get(wallet.id) };
      hot.set(wallet.id, { ...config, state: 'HOT' });
      return hot.get(wallet.id)!;
    },
    async demote(id) {
      const config = hot.get(id);
      if (config) hot.set(id, { ...config, state: 'COOLING' });
      return hot.get(id);
    },
    async foldInbox(id, partitions) {
      if (id === 'wal_broken') throw new Error('fold failed');
      folded.push(`${id}:${partitions.join(',')}`);
    },
    async keep(id) {
      if (id === 'wal_broken') throw new Error('keeper failed');
      kept.push(id);
      if (hot.get(id)?.state === 'COOLING') hot.delete(id);
    },
    registeredWallets: async () => [...registry].map(([walletId, registeredAt]) => ({ walletId, registeredAt })),
    unregister: async (id) => void registry.delete(id),
    conflictsOf: async (minute) => conflicts.get(minute) ?? [],
    commit: async (changes) => void audits.push(...changes.filter((c): c is AuditEntryChange => c.type === 'audit')),
  };
  let n = 0;
  const service = createHotModeService({ store, clock, ids: (kind) => `${kind}_${++n}` });
  return { clock, wallets, hot, registry, conflicts, audits, kept, folded, stragglers, service };
}

describe('hot mode: rules', () => {
  it('promotes the wallets whose conflicts in one minute reach the threshold, most conflicted first', () => {
    const counts = [
      { walletId: 'wal_quiet', conflicts: HOT_PROMOTION_CONFLICTS_PER_MINUTE - 1 },
      { walletId: 'wal_hot', conflicts: HOT_PROMOTION_CONFLICTS_PER_MINUTE },
      { walletId: 'wal_hotter', conflicts: 100 },
      { walletId: 'wal_hotter', conflicts: 400 },
    ];
    expect(promotionCandidates(counts)).toEqual(['wal_hotter', 'wal_hot']);
  });

  it('judges the last complete UTC minute', () => {
    expect(minuteOf(START)).toBe('2026-11-28T03:30');
    expect(previousMinuteOf(START)).toBe('2026-11-28T03:29');
  });
});

describe('hot mode: the operator switch', () => {
  it('promotes an ACTIVE wallet with the documented sizes and audits it in its organization', async () => {
    const w = world();
    w.wallets.set('wal_1', walletOf('wal_1'));
    const answer = await w.service.setHotMode(operator, AUDIT.wallet.enableHotMode, 'wal_1', true);
    expect(answer.hot).toMatchObject({ state: 'HOT', partitions: HOT_MODE_PARTITIONS, lanes: HOT_MODE_LANES });
    expect(presentHotModeWallet(answer)).toMatchObject({
      id: 'wal_1',
      balance: '100.00000000',
      hotMode: { state: 'HOT', since: START.toISOString(), partitions: HOT_MODE_PARTITIONS, lanes: HOT_MODE_LANES },
    });
    expect(w.audits.map((a) => a.entry)).toEqual([
      expect.objectContaining({
        organizationId: 'org_a',
        environment: 'SANDBOX',
        action: AUDIT.wallet.enableHotMode,
        actorId: 'key_operator',
        resourceId: 'wal_1',
        walletId: 'wal_1',
      }),
    ]);
  });

  it('answers a hot wallet as it is and writes nothing when it is turned on again', async () => {
    const w = world();
    w.wallets.set('wal_1', walletOf('wal_1'));
    await w.service.setHotMode(operator, AUDIT.wallet.enableHotMode, 'wal_1', true);
    const again = await w.service.setHotMode(operator, AUDIT.wallet.enableHotMode, 'wal_1', true);
    expect(again.hot?.state).toBe('HOT');
    expect(w.audits).toHaveLength(1);
  });

  it('starts the demotion when turned off (COOLING), audited as disabled; off again changes nothing', async () => {
    const w = world();
    w.wallets.set('wal_1', walletOf('wal_1'));
    await w.service.setHotMode(operator, AUDIT.wallet.enableHotMode, 'wal_1', true);
    const off = await w.service.setHotMode(operator, AUDIT.wallet.enableHotMode, 'wal_1', false);
    expect(presentHotModeWallet(off).hotMode?.state).toBe('COOLING');
    await w.service.setHotMode(operator, AUDIT.wallet.enableHotMode, 'wal_1', false);
    expect(w.audits.map((a) => a.entry.action)).toEqual([AUDIT.wallet.enableHotMode, AUDIT.wallet.disableHotMode]);
  });

  it('answers a cold wallet turned off with hotMode null and no audit entry', async () => {
    const w = world();
    w.wallets.set('wal_1', walletOf('wal_1'));
    const answer = await w.service.setHotMode(operator, AUDIT.wallet.enableHotMode, 'wal_1', false);
    expect(presentHotModeWallet(answer).hotMode).toBeNull();
    expect(w.audits).toEqual([]);
  });

  it.each([
    ['an unknown wallet', undefined, 'WALLET_NOT_FOUND'],
    ['a closed wallet', walletOf('wal_1', { status: 'FROZEN', deletedAt: START.toISOString() }), 'INVALID_STATE'],
    ['a frozen wallet', walletOf('wal_1', { status: 'FROZEN' }), 'INVALID_STATE'],
  ])('refuses to promote %s', async (_name, wallet, code) => {
    const w = world();
    if (wallet) w.wallets.set('wal_1', wallet);
    const call = w.service.setHotMode(operator, AUDIT.wallet.enableHotMode, 'wal_1', true);
    await expect(call).rejects.toBeInstanceOf(ApiError);
    await expect(call).rejects.toMatchObject({ code });
    expect(w.hot.size).toBe(0);
  });

  it('makes a cooling wallet HOT again when turned on', async () => {
    const w = world();
    w.wallets.set('wal_1', walletOf('wal_1'));
    await w.service.setHotMode(operator, AUDIT.wallet.enableHotMode, 'wal_1', true);
    await w.service.setHotMode(operator, AUDIT.wallet.enableHotMode, 'wal_1', false);
    const again = await w.service.setHotMode(operator, AUDIT.wallet.enableHotMode, 'wal_1', true);
    expect(again.hot?.state).toBe('HOT');
    expect(w.audits.map((a) => a.entry.action)).toEqual([
      AUDIT.wallet.enableHotMode,
      AUDIT.wallet.disableHotMode,
      AUDIT.wallet.enableHotMode,
    ]);
  });
});

describe('hot mode: the scheduled keeper', () => {
  it('keeps every registered hot wallet, and one failing wallet does not stop the others', async () => {
    const w = world();
    for (const id of ['wal_1', 'wal_broken', 'wal_2']) {
      w.wallets.set(id, walletOf(id));
      await w.service.setHotMode(operator, AUDIT.wallet.enableHotMode, id, true);
    }
    const report = await w.service.runSchedule();
    expect(report.kept.sort()).toEqual(['wal_1', 'wal_2']);
    expect(report.failed).toEqual([{ walletId: 'wal_broken', error: 'Error: keeper failed' }]);
  });

  it('drops a registration once the wallet is cold past the grace period', async () => {
    const w = world();
    w.wallets.set('wal_1', walletOf('wal_1'));
    await w.service.setHotMode(operator, AUDIT.wallet.enableHotMode, 'wal_1', true);
    await w.service.setHotMode(operator, AUDIT.wallet.enableHotMode, 'wal_1', false);
    await w.service.runSchedule(); // the keeper finishes the demotion
    expect(w.hot.has('wal_1')).toBe(false);
    expect((await w.service.runSchedule()).unregistered).toEqual([]);
    w.clock.advance(REGISTRATION_GRACE_MS + 1);
    expect((await w.service.runSchedule()).unregistered).toEqual(['wal_1']);
    expect(w.registry.size).toBe(0);
  });

  it("keeps a closed wallet registered, and its keeper running, while a straggler's bounce is refused", async () => {
    const w = world();
    w.wallets.set('wal_1', walletOf('wal_1'));
    await w.service.setHotMode(operator, AUDIT.wallet.enableHotMode, 'wal_1', true);
    w.hot.delete('wal_1'); // the close finished: cold, deleted
    w.stragglers.add('wal_1'); // a payment landed after it; its payer, paused, refused the bounce
    w.clock.advance(REGISTRATION_GRACE_MS + 1);
    const report = await w.service.runSchedule();
    expect(report.kept).toEqual(['wal_1']);
    expect(report.unregistered).toEqual([]);
    w.stragglers.delete('wal_1'); // bounced by that run, or a later one
    expect((await w.service.runSchedule()).unregistered).toEqual(['wal_1']);
  });

  it('promotes ACTIVE cold wallets over the threshold of the last minute, audited by the system', async () => {
    const w = world();
    w.wallets.set('wal_busy', walletOf('wal_busy'));
    w.wallets.set('wal_frozen', walletOf('wal_frozen', { status: 'FROZEN' }));
    w.wallets.set('wal_quiet', walletOf('wal_quiet'));
    w.conflicts.set(previousMinuteOf(START), [
      { walletId: 'wal_busy', conflicts: HOT_PROMOTION_CONFLICTS_PER_MINUTE },
      { walletId: 'wal_frozen', conflicts: 999 },
      { walletId: 'wal_gone', conflicts: 999 },
      { walletId: 'wal_quiet', conflicts: 3 },
    ]);
    const report = await w.service.runSchedule();
    expect(report.promoted).toEqual(['wal_busy']);
    expect(w.hot.get('wal_busy')?.state).toBe('HOT');
    expect(w.audits.map((a) => [a.entry.action, a.entry.actorType, a.entry.actorId])).toEqual([
      [AUDIT.wallet.enableHotMode, 'SYSTEM', HOT_PROMOTION_ACTOR.actorId],
    ]);
    expect((await w.service.runSchedule()).promoted).toEqual([]);
  });

  it('folds each partition the stream saw once, wallet by wallet, however many credits landed in it', async () => {
    const w = world();
    const failed = await w.service.foldPartitions([
      { walletId: 'wal_1', partition: 3 },
      { walletId: 'wal_1', partition: 3 },
      { walletId: 'wal_1', partition: 4 },
      { walletId: 'wal_2', partition: 3 },
      { walletId: 'wal_broken', partition: 0 },
    ]);
    expect(w.folded.sort()).toEqual(['wal_1:3,4', 'wal_2:3']);
    expect(failed).toEqual([{ walletId: 'wal_broken', partition: 0 }]);
  });
});

describe('hot mode: the HOT_INBOX stream', () => {
  const record = (eventName: string, item: Record<string, unknown>) => ({
    eventName,
    dynamodb: { NewImage: marshall(item), SequenceNumber: '1' },
  });
  const inbox = {
    ...hotKeys.inboxItem('wal_1', 17, 'txn_1'),
    entityType: HOT_INBOX_ENTITY,
    walletId: 'wal_1',
    amount: 5,
  };

  it('names the wallet and partition of a new inbox item', () => {
    expect(inboxPartitionOf(record('INSERT', inbox))).toEqual({ walletId: 'wal_1', partition: 17 });
  });

  it('ignores what is no new inbox item', () => {
    expect(inboxPartitionOf(record('MODIFY', inbox))).toBeUndefined();
    expect(inboxPartitionOf({ eventName: 'REMOVE', dynamodb: {} })).toBeUndefined();
    expect(inboxPartitionOf(record('INSERT', { ...inbox, entityType: 'HOT_ACC' }))).toBeUndefined();
  });
});

describe('hot mode: which wallets a conflict counts against', () => {
  const writes = ['wal_a', 'wal_b'].map((id) => ({
    item: { Update: { TableName: 't', Key: walletKeys.primary(id), UpdateExpression: 'SET x = :x' } },
  }));
  const journal = { item: { Put: { TableName: 't', Item: { PK: 'TXN#1', SK: 'TXN' } } } };

  it('names the wallets whose items DynamoDB says conflicted', () => {
    const cause = { CancellationReasons: [{ Code: 'None' }, { Code: 'None' }, { Code: 'TransactionConflict' }] };
    expect(conflictedWallets([journal, ...writes], cause)).toEqual(['wal_b']);
  });

  it('names every wallet of the transaction when the cause names none (an injected conflict)', () => {
    expect(conflictedWallets([journal, ...writes], new Error('injected'))).toEqual(['wal_a', 'wal_b']);
  });

  it('never counts a sub-item of a hot wallet (a lane) as its wallet', () => {
    const lane = {
      item: {
        Update: { TableName: 't', Key: { PK: 'WALLET#wal_a#LANE#3', SK: 'LANE' }, UpdateExpression: 'SET x = :x' },
      },
    };
    expect(conflictedWallets([lane], new Error('injected'))).toEqual([]);
  });
});
