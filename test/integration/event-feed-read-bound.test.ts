import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../shared/domain/clock.js';
import { FEED_SETTLE_MS } from '../../shared/domain/events/event-feed.js';
import { createEventService } from '../../shared/domain/events/event-service.js';
import type { RequestContext } from '../../shared/domain/tenancy.js';
import type { OutboxEvent, Page, PageRequest } from '../../shared/domain/types.js';
import { createEventStore, FEED_QUERIES_PER_CALL } from '../../shared/persistence/event-store.js';
import { createTestTable } from '../fixtures/table.js';

const ORG = 'org_scan0000000000000001';
const T0 = Date.parse('2026-11-27T10:00:00.000Z');
const OWN_WALLET = 'wal_xxxx00000000000000000001';
const OTHER_WALLET = 'wal_yyyy00000000000000000001';
/** More than FEED_QUERIES_PER_CALL queries of 100 items: an unbounded poll would read them all. */
const EVENTS = 550;
/** The positions of the agent's wallet's events among the organization's (first, either side of a query's end, then none for 448 events, more than FEED_QUERIES_PER_CALL queries read). */
const OWN_AT = new Set([0, 1, 99, 100, EVENTS - 1]);

const principal = (walletId: string | null) =>
  ({
    kind: walletId ? 'AGENT' : 'ORGANIZATION',
    keyId: 'key_scan',
    organizationId: ORG,
    environment: 'SANDBOX',
    walletId,
    permissions: ['wallets:read'],
  }) as unknown as RequestContext['principal'];
const keyOf = (walletId: string | null): RequestContext => ({
  principal: principal(walletId),
  actor: { actorType: 'API_KEY', actorId: 'key_scan', ipAddress: '127.0.0.1' },
  requestId: 'req_1',
});

/**
 * GET /v1/events?order=visible reads the organization's visible-order partition and keeps, for a
 * wallet-scoped (agent) key or a type filter, the matching events with a filter. It queried on until
 * the page was full or the partition ended: one poll by an agent whose wallet had no event read every
 * event of every other wallet of its organization (30 days of them). A poll now makes at most
 * FEED_QUERIES_PER_CALL queries and, when that bound is reached first, answers the page so far
 * (possibly empty) with the position reached and `more`: polling on with the cursor misses nothing.
 */
describe('the events feed read by a wallet-scoped key', () => {
  let queries = 0;
  let events: ReturnType<typeof createEventService>;
  const all: OutboxEvent[] = Array.from({ length: EVENTS }, (_, n) => ({
    id: `evt_scan${String(n).padStart(16, '0')}`,
    type: 'wallet.funded',
    organizationId: ORG,
    environment: 'SANDBOX',
    createdAt: new Date(T0 + n).toISOString(),
    data: { walletId: OWN_AT.has(n) ? OWN_WALLET : OTHER_WALLET, amount: '1.00' },
  }));

  beforeAll(async () => {
    const table = await createTestTable();
    const send = table.client.send.bind(table.client) as (...args: unknown[]) => unknown;
    (table.client as unknown as { send: (...args: unknown[]) => unknown }).send = (
      command: unknown,
      ...rest: unknown[]
    ) => {
      if (command instanceof QueryCommand) queries += 1;
      return send(command, ...rest);
    };
    const clock = fixedClock(new Date(T0));
    const store = createEventStore(table, { clock });
    events = createEventService({ store, clock });
    for (let i = 0; i < all.length; i += 75) await store.storeEvents(all.slice(i, i + 75));
    clock.advance(FEED_SETTLE_MS + 10_000);
  }, 120_000);

  /** Polls with the cursor until caught up: every page, and the queries each call made. */
  const pollAll = async (key: RequestContext, limit: number) => {
    const pages: { page: Page<OutboxEvent>; queries: number }[] = [];
    let startKey: PageRequest['startKey'];
    do {
      queries = 0;
      const page = await events.list(key, { order: 'visible' }, { limit, ...(startKey ? { startKey } : {}) });
      pages.push({ page, queries });
      startKey = page.lastKey;
      if (!page.more) break;
    } while (pages.length < 100);
    return pages;
  };

  it(`reads at most ${FEED_QUERIES_PER_CALL} index pages per poll, whatever the other wallets of the organization did`, async () => {
    const alone = all.filter((event) => event.data.walletId === OTHER_WALLET).length;
    expect(alone).toBeGreaterThan(FEED_QUERIES_PER_CALL * 100);

    const pages = await pollAll(keyOf(OWN_WALLET), 1);

    expect(pages.map((poll) => poll.queries).filter((count) => count > FEED_QUERIES_PER_CALL)).toEqual([]);
    // The bound was reached before a page was full: a short (empty) page that says to call again at once.
    expect(pages.some((poll) => poll.page.items.length === 0 && poll.page.more)).toBe(true);
    expect(pages.at(-1)!.page.more).toBe(false);
  });

  it("misses none of the wallet's events when polling on with the cursor, and repeats none", async () => {
    for (const limit of [1, 2, 100]) {
      const pages = await pollAll(keyOf(OWN_WALLET), limit);
      const seen = pages.flatMap((poll) => poll.page.items.map((event) => event.id));
      expect(seen, `limit ${limit}`).toEqual(
        all.filter((event) => event.data.walletId === OWN_WALLET).map((event) => event.id),
      );
      expect(
        pages.every((poll) => poll.queries <= FEED_QUERIES_PER_CALL),
        `limit ${limit}`,
      ).toBe(true);
    }
  });

  it('still fills every page of an organization key (no filter): the bound never shortens an unfiltered page', async () => {
    const pages = await pollAll(keyOf(null), 100);
    expect(pages.map((poll) => poll.page.items.length)).toEqual([100, 100, 100, 100, 100, 50]);
    expect(pages.flatMap((poll) => poll.page.items.map((event) => event.id))).toEqual(all.map((event) => event.id));
    expect(pages.every((poll) => poll.queries <= FEED_QUERIES_PER_CALL)).toBe(true);
  });
});
