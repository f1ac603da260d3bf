import { describe, expect, it } from 'vitest';
import { setupE2e } from '../fixtures/e2e-setup.js';
import { FEED_SETTLE_MS } from '../../shared/domain/events/event-feed.js';
import { eventually } from '../fixtures/eventually.js';

/** docs/api.md "Events", polling: `GET /v1/events?order=visible` and its cursor. */
describe('polling GET /v1/events in visible order', () => {
  const { service, org } = setupE2e({ organizations: { org: 'Polling org' } });

  const poll = (cursor?: string, query = 'order=visible') =>
    service.call('GET', `/v1/events?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, {
      key: org.key,
    });

  it('answers a cursor on an empty page, and polling with it returns the next event, then a cursor again', async () => {
    // Everything the organization did so far is read first: the feed then has nothing new.
    await service.projected();
    const before = await service.call('GET', '/v1/events?limit=100', { key: org.key });
    const pending = new Set<string>(before.body.data.map((event: { id: string }) => event.id));
    let cursor: string | undefined;
    await eventually(async () => {
      const page = await poll(cursor);
      expect(page.status, page.text).toBe(200);
      expect(typeof page.body.cursor).toBe('string');
      cursor = page.body.cursor;
      for (const event of page.body.data as { id: string }[]) pending.delete(event.id);
      expect(pending.size).toBe(0);
      expect(page.body).toMatchObject({ data: [], hasMore: false });
    }, FEED_SETTLE_MS + 5_000);
    expect(typeof cursor).toBe('string');

    const funded = await service.call('POST', `/v1/wallets/${org.mainWalletId}/fund`, {
      key: org.key,
      body: { amount: '5.00' },
    });
    expect(funded.status, funded.text).toBe(200);

    const page = await eventually(async () => {
      const next = await poll(cursor);
      expect(next.status, next.text).toBe(200);
      expect(next.body.data).not.toEqual([]);
      return next;
    }, FEED_SETTLE_MS + 5_000);
    expect(page.body.data.map((event: { type: string }) => event.type)).toEqual(['wallet.funded']);
    expect(page.body.data[0].data).toMatchObject({ walletId: org.mainWalletId, amount: '5.00' });
    expect(page.body.hasMore).toBe(false);
    expect(typeof page.body.cursor).toBe('string');

    const after = await poll(page.body.cursor);
    expect(after.body).toMatchObject({ data: [], hasMore: false });
    expect(typeof after.body.cursor).toBe('string');
  });

  it('refuses a feed cursor with another query, and keeps the newest-first list as it was', async () => {
    const feed = await poll();
    expect(feed.status, feed.text).toBe(200);
    const mismatched = await poll(feed.body.cursor, 'order=visible&type=wallet.funded');
    expect({ status: mismatched.status, code: mismatched.body.error?.code }).toEqual({
      status: 400,
      code: 'VALIDATION_ERROR',
    });

    const newest = await service.call('GET', '/v1/events?limit=100', { key: org.key });
    expect(newest.status, newest.text).toBe(200);
    const createdAts = newest.body.data.map((event: { createdAt: string }) => event.createdAt);
    expect(createdAts).toEqual([...createdAts].sort().reverse());
    expect(newest.body.cursor).toBeNull();
    expect(newest.body.hasMore).toBe(false);
  });
});
