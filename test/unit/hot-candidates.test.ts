import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../shared/domain/clock.js';
import {
  HOT_PROMOTION_CONFLICTS_PER_MINUTE,
  promotionCandidates,
} from '../../shared/domain/hot-mode/hot-mode-rules.js';
import { newWallet } from '../../shared/domain/wallets/wallet-rules.js';
import { createCommitter } from '../../shared/persistence/change-writer.js';
import { HOT_CANDIDATE_SHARDS, hotCandidateKeys } from '../../shared/persistence/entities/hot-candidate.js';
import {
  CONFLICT_FLUSH_MS,
  conflictCounterOf,
  conflictsOf,
  createConflictCounter,
  flushConflictCounts,
} from '../../shared/persistence/hot/hot-candidates.js';
import type { TableContext } from '../../shared/persistence/table-context.js';
import { WRITERS } from '../../shared/persistence/writers/index.js';
import { createMemoryDynamo } from '../fakes/memory-dynamo/index.js';

/**
 * Automatic promotion's conflict counter (shared/persistence/hot/hot-candidates.ts) over
 * memory-dynamo: counts stamped with the injected clock's minute, spread over shard keys, written
 * in the background at most once a second per process, and exact enough for the promotion rule.
 */
describe('hot candidates: the conflict counter', () => {
  const START = new Date('2026-11-28T10:00:30.000Z');

  function world(options: { hold?: boolean } = {}) {
    const memory = createMemoryDynamo({ tables: ['candidates'] });
    const clock = fixedClock(START);
    const updates: string[] = [];
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const client = {
      send: async (command: { constructor: { name: string }; input: { Key?: { PK?: string } } }) => {
        if (command.constructor.name === 'UpdateCommand' && command.input.Key?.PK?.startsWith('HOT_CANDIDATES#')) {
          updates.push(command.input.Key.PK);
          if (options.hold) await held;
        }
        return memory.client.send(command as never);
      },
    } as unknown as DynamoDBDocumentClient;
    const table: TableContext = { client, tableName: 'candidates' };
    return { table, clock, updates, release };
  }

  it('stamps the counts with the injected clock, not the system clock', async () => {
    const { table, clock } = world();
    const counter = createConflictCounter(table, clock);
    counter.add(new Map([['wal_a', 3]]));
    await counter.flush();
    expect(await conflictsOf(table, '2026-11-28T10:00')).toEqual([{ walletId: 'wal_a', conflicts: 3 }]);
    clock.advance(60_000);
    counter.add(new Map([['wal_a', 2]]));
    await counter.flush();
    expect(await conflictsOf(table, '2026-11-28T10:01')).toEqual([{ walletId: 'wal_a', conflicts: 2 }]);
  });

  it('spreads one minute over shard keys by wallet, and reads every shard back', async () => {
    const { table, clock, updates } = world();
    const counter = createConflictCounter(table, clock);
    const wallets = Array.from({ length: 40 }, (_, i) => `wal_shard${i}`);
    counter.add(new Map(wallets.map((id) => [id, 1])));
    await counter.flush();
    expect(new Set(updates).size).toBeGreaterThan(HOT_CANDIDATE_SHARDS / 2);
    for (const pk of updates) expect(pk).toMatch(/^HOT_CANDIDATES#2026-11-28T10:00#\d+$/);
    expect(hotCandidateKeys.candidate('2026-11-28T10:00', 'wal_shard0').PK).toBe(
      `HOT_CANDIDATES#2026-11-28T10:00#${hotCandidateKeys.shardOf('wal_shard0')}`,
    );
    const counts = await conflictsOf(table, '2026-11-28T10:00');
    expect(counts.map((c) => c.walletId).sort()).toEqual([...wallets].sort());
  });

  it('writes at most once a second per wallet, however many conflicts, and loses none of them', async () => {
    const { table, clock, updates } = world();
    const counter = createConflictCounter(table, clock);
    // 600 conflicted commits in 10 s (60 a second): one write at the first, then one a second.
    for (let i = 0; i < 600; i++) {
      counter.add(new Map([['wal_busy', 1]]));
      await Promise.resolve();
      clock.advance(1000 / 60);
    }
    await counter.flush();
    expect(updates.length).toBeGreaterThanOrEqual(10);
    expect(updates.length).toBeLessThanOrEqual(12);
    const minute = await conflictsOf(table, '2026-11-28T10:00');
    const next = await conflictsOf(table, '2026-11-28T10:01');
    // Counted under the minute each conflict happened in (30 s into 10:00, so 10 s of them fit).
    expect([...minute, ...next].reduce((n, c) => n + c.conflicts, 0)).toBe(600);
    expect(minute).toEqual([{ walletId: 'wal_busy', conflicts: 600 }]);
  });

  it('keeps the promotion rule: 120 conflicted attempts in a minute promote, 119 do not', async () => {
    const { table, clock } = world();
    const counter = createConflictCounter(table, clock);
    for (let i = 0; i < HOT_PROMOTION_CONFLICTS_PER_MINUTE; i++) {
      counter.add(new Map([['wal_hot', 1], ...(i > 0 ? ([['wal_quiet', 1]] as const) : [])]));
      clock.advance(200);
    }
    await counter.flush();
    expect(promotionCandidates(await conflictsOf(table, '2026-11-28T10:00'))).toEqual(['wal_hot']);
  });

  it('never makes a commit wait for the count: a commit answers while the count write hangs', async () => {
    const { table: base, clock, updates, release } = world({ hold: true });
    let attempts = 0;
    // The table's own clock stamps the counts (the core passes its injected clock the same way).
    const table: TableContext = {
      ...base,
      clock,
      transact: { sleep: async () => undefined, injectConflict: () => ++attempts === 1 },
    };
    const walletId = 'wal_slowcount';
    const wallet = newWallet({
      id: walletId,
      organizationId: 'org_candidates',
      environment: 'SANDBOX',
      name: walletId,
      walletType: 'ORG',
      isMain: false,
      createdAt: START.toISOString(),
    });
    await createCommitter(table, WRITERS).commit([{ type: 'createWallet', wallet }]);
    // The commit conflicted once and went through; the count it started is still in flight.
    expect(attempts).toBe(2);
    expect(updates).toEqual([hotCandidateKeys.candidate('2026-11-28T10:00', walletId).PK]);
    const pending = flushConflictCounts(table);
    release();
    await pending;
    expect(await conflictsOf(table, '2026-11-28T10:00')).toEqual([{ walletId, conflicts: 1 }]);
    expect(conflictCounterOf(table)).toBe(conflictCounterOf(table));
  });

  it('a quiet commit starts the flush a busy one left held (nothing waits for the next conflict)', async () => {
    const { table, clock, updates } = world();
    const counter = conflictCounterOf(table, clock);
    counter.add(new Map([['wal_burst', 1]]));
    counter.add(new Map([['wal_burst', 5]]));
    await counter.flush();
    expect(updates.length).toBe(2);
    counter.add(new Map([['wal_burst', 7]]));
    counter.tick();
    expect(updates.length).toBe(2);
    clock.advance(CONFLICT_FLUSH_MS);
    counter.tick();
    expect(updates.length).toBe(3);
    await counter.flush();
    expect(await conflictsOf(table, '2026-11-28T10:00')).toEqual([{ walletId: 'wal_burst', conflicts: 13 }]);
  });
});
