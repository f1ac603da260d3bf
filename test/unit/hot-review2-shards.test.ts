import { describe, expect, it } from 'vitest';
import { AUDIT } from '../../shared/domain/audit/actions.js';
import { HOT_ORGANIZATION_SHARDS } from '../../shared/persistence/entities/shards.js';
import { registerHotWallet } from '../../shared/persistence/hot/hot-candidates.js';
import { orgShardCount, raiseShards } from '../../shared/persistence/org-shards.js';
import { hotOps } from '../fixtures/hot-property/hot-ops.js';
import { AGENT } from '../fixtures/hot-property/oracle.js';
import { newHotWorld, scopeOf } from '../fixtures/hot-property/world.js';
import { createMemoryDynamo } from '../fakes/memory-dynamo/index.js';

/**
 * Review (issue 25, session 3): HOT_ORGANIZATION_SHARDS went 8 -> 16 because 8 missed the
 * payment-listing shard's target at 5,000 payments/s (docs/performance.md). Only a promotion raises an
 * organization's shards (hot-mode-store.ts promote); an organization whose wallet was promoted before
 * (raised to 8 then) keeps 8 for as long as that wallet stays hot: the schedule keeps a hot wallet
 * without promoting it, and turning hot mode on for a HOT wallet answers before the store's promote.
 */
describe('an organization raised to 8 shards by a promotion before the count became 16', () => {
  it('is raised to HOT_ORGANIZATION_SHARDS while its wallet stays hot', async () => {
    const memory = createMemoryDynamo({ tables: ['review2-shards'] });
    const w = await newHotWorld({ client: memory.client, tableName: 'review2-shards' });
    const { organizationId, environment } = scopeOf(w);
    const agentId = w.walletIds[AGENT]!;
    // The promotion of before: registered, hot, the organization at 8 shards.
    await registerHotWallet(w.table, { walletId: agentId, registeredAt: w.clock.now().toISOString() });
    await hotOps.promote(w.table, agentId, { partitions: 2, lanes: 2 }, w.clock);
    expect(await raiseShards(w.table, organizationId, environment, 8, { delayMs: 0 })).toBe(8);

    // After the deploy: the minute schedule runs, an operator turns hot mode on again.
    const hotMode = w.processes[0]!.services.hotMode;
    await hotMode.runSchedule();
    await hotMode.setHotMode(w.requester, AUDIT.wallet.enableHotMode, agentId, true);
    w.clock.advance(60_000);
    await hotMode.runSchedule();
    expect(await orgShardCount(w.table, organizationId, environment)).toBe(HOT_ORGANIZATION_SHARDS);
  });
});
