import { beforeEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../../shared/domain/clock.js';
import { FEED_SETTLE_MS, FEED_STAMP_BUDGET_MS } from '../../shared/domain/events/event-feed.js';
import { createEventService } from '../../shared/domain/events/event-service.js';
import type { RequestContext } from '../../shared/domain/tenancy.js';
import type { OutboxEvent, Page } from '../../shared/domain/types.js';
import { createEventStore } from '../../shared/persistence/event-store.js';
import { createTestTable } from '../fixtures/table.js';

const ORG = 'org_feed0000000000000001';
const T0 = Date.parse('2026-11-27T10:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms).toISOString();

const orgKey: RequestContext = {
  principal: {
    kind: 'ORGANIZATION',
    keyId: 'key_feed',
    organizationId: ORG,
    environment: 'SANDBOX',
    walletId: null,
    permissions: ['wallets:read'],
  },
  actor: { actorType: 'API_KEY', actorId: 'key_feed', ipAddress: '127.0.0.1' },
  requestId: 'req_1',
};

function event(n: number, createdAtMs: number, walletId = 'wal_feed000000000000000001'): OutboxEvent {
  return {
    id: `evt_feed${String(n).padStart(16, '0')}`,
    type: 'wallet.funded',
    organizationId: ORG,
    environment: 'SANDBOX',
    createdAt: at(createdAtMs),
    data: { walletId, amount: '1.00' },
  };
}

/**
 * Polling GET /v1/events (docs/api.md "Events"): events are stored by the projector a moment after
 * their `createdAt`, not in `createdAt` order, so "everything created after the newest I saw" skips
 * an event created earlier that became visible later. The visible-order feed (`order=visible`) hands
 * out a cursor that never skips one.
 */
describe('polling the events API', () => {
  let clock: ReturnType<typeof fixedClock>;
  let store: ReturnType<typeof createEventStore>;
  let events: ReturnType<typeof createEventService>;
  let table: Awaited<ReturnType<typeof createTestTable>>;

  beforeEach(async () => {
    table = await createTestTable();
    clock = fixedClock(new Date(T0));
    store = createEventStore(table, { clock });
    events = createEventService({ store, clock });
  });

  /** The projector stores `batch` now, then time passes. */
  const project = async (batch: OutboxEvent[], thenMs = 0) => {
    await store.storeEvents(batch);
    clock.advance(thenMs);
  };
  const ids = (page: Page<OutboxEvent>) => page.items.map((item) => item.id);
  const visible = (cursor?: Record<string, unknown>) =>
    events.list(orgKey, { order: 'visible' }, { limit: 100, ...(cursor ? { startKey: cursor } : {}) });

  it('misses an event created earlier than one already seen when polling with createdAfter', async () => {
    const late = event(1, 100);
    const early = event(2, 1_500);
    clock.set(new Date(T0 + 1_600));
    await project([early], 10);
    const first = await events.list(orgKey, { createdAfter: at(0) }, { limit: 100 });
    expect(ids(first)).toEqual([early.id]);

    await project([late]);
    const next = await events.list(orgKey, { createdAfter: first.items[0]!.createdAt }, { limit: 100 });
    expect(ids(next)).toEqual([]);
    expect(ids(await events.list(orgKey, {}, { limit: 100 }))).toContain(late.id);
  });

  it('answers a cursor on an empty page, and the cursor then returns the event that became visible after it, even one created earlier', async () => {
    const empty = await visible();
    expect(empty.items).toEqual([]);
    expect(empty.lastKey).toBeDefined();
    expect(empty.more).toBe(false);

    const early = event(1, 1_500);
    const late = event(2, 100);
    clock.set(new Date(T0 + 1_600));
    await project([early], FEED_SETTLE_MS + 1);
    const first = await visible(empty.lastKey);
    expect(ids(first)).toEqual([early.id]);

    await project([late], 1);
    // Not yet settled: a poll right after it is stored answers nothing, and the same cursor again.
    const unsettled = await visible(first.lastKey);
    expect(ids(unsettled)).toEqual([]);
    clock.advance(FEED_SETTLE_MS);
    const next = await visible(unsettled.lastKey);
    expect(ids(next)).toEqual([late.id]);
    expect(ids(await visible(next.lastKey))).toEqual([]);
  });

  it('never misses an event over a long run of interleaved stores and polls (pages of 7), where createdAfter polling misses some', async () => {
    const all: OutboxEvent[] = [];
    const seenByFeed = new Set<string>();
    const seenByCreatedAfter = new Set<string>();
    let cursor: Record<string, unknown> | undefined;
    let newestCreatedAt = at(-1);
    for (let n = 0; n < 120; n++) {
      // Each event is stored 0-1.8 s after its createdAt, so stores are out of createdAt order.
      const createdAtMs = n * 100 - ((n * 7919) % 1_800);
      clock.set(new Date(Math.max(clock.now().getTime(), T0 + n * 100)));
      const next = event(n, createdAtMs);
      all.push(next);
      await project([next], 37);
      if (n % 5 !== 4) continue;
      for (let more = true; more;) {
        const page = await events.list(
          orgKey,
          { order: 'visible' },
          { limit: 7, ...(cursor ? { startKey: cursor } : {}) },
        );
        for (const id of ids(page)) seenByFeed.add(id);
        cursor = page.lastKey;
        more = page.more ?? false;
      }
      const polled = await events.list(orgKey, { createdAfter: newestCreatedAt }, { limit: 100 });
      for (const item of polled.items) {
        seenByCreatedAfter.add(item.id);
        if (item.createdAt > newestCreatedAt) newestCreatedAt = item.createdAt;
      }
    }
    clock.advance(FEED_SETTLE_MS + 1);
    for (let more = true; more;) {
      const page = await events.list(
        orgKey,
        { order: 'visible' },
        { limit: 7, ...(cursor ? { startKey: cursor } : {}) },
      );
      for (const id of ids(page)) seenByFeed.add(id);
      cursor = page.lastKey;
      more = page.more ?? false;
    }
    expect(all.filter((item) => !seenByFeed.has(item.id)).map((item) => item.id)).toEqual([]);
    expect(all.filter((item) => !seenByCreatedAfter.has(item.id)).length).toBeGreaterThan(0);
  });

  it("shows a wallet-scoped key only its wallet's events in visible order", async () => {
    const agentKey: RequestContext = {
      ...orgKey,
      principal: { ...orgKey.principal, kind: 'AGENT', walletId: 'wal_feed000000000000000002' },
    };
    await project([event(1, 0), event(2, 1, 'wal_feed000000000000000002'), event(3, 2)], FEED_SETTLE_MS + 1);
    const page = await events.list(agentKey, { order: 'visible' }, { limit: 100 });
    expect(ids(page)).toEqual([event(2, 1).id]);
  });

  it('stamps an event again when its write ended later than the stamp budget, so a poll that passed the first stamp still gets it', async () => {
    // Stamped at T0, the write ends only at T0 + 3.5 s; a poll at T0 + 3.2 s has passed the stamp
    // (its window ends at T0 + 0.2 s) without seeing the event, which was not written yet.
    const writeEnds = T0 + FEED_SETTLE_MS + 500;
    let reads = 0;
    const slow = { now: () => new Date(++reads > 1 ? writeEnds : T0) };
    clock.set(new Date(T0 + FEED_SETTLE_MS + 200));
    const passed = await visible();
    expect(passed.items).toEqual([]);
    await createEventStore(table, { clock: slow }).storeEvents([event(1, 0)]);
    expect(FEED_STAMP_BUDGET_MS).toBeLessThan(writeEnds - T0);
    clock.set(new Date(writeEnds + FEED_SETTLE_MS));
    expect(ids(await visible(passed.lastKey))).toEqual([event(1, 0).id]);
  });
});
