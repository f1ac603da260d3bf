import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { AUDIT } from '../../shared/domain/audit/actions.js';
import { HOT_ORGANIZATION_SHARDS, ORG_SHARDS_CACHE_MS, shardedKeys } from '../../shared/persistence/entities/shards.js';
import { raiseShards } from '../../shared/persistence/org-shards.js';
import { setupE2e } from '../fixtures/e2e-setup.js';

const PAYMENTS = 24;

/**
 * An organization whose projected keys are sharded (S = HOT_ORGANIZATION_SHARDS, as when one of its wallets is
 * promoted to hot mode) answers its lists as any other: every payment, audit entry and event once,
 * newest first, through the same cursors and filters. Nothing a client sees differs.
 */
describe('the lists of an organization of 16 shards (HOT_ORGANIZATION_SHARDS), as a client reads them', () => {
  const { service, org } = setupE2e({ organizations: { org: 'Sharded Org' } });
  let payer: string;
  let payee: string;
  const paid: string[] = [];

  /** Every page of a list through its cursor: the items in the order given. */
  async function allPages(path: string, limit: number): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 100; pages++) {
      const separator = path.includes('?') ? '&' : '?';
      const response = await service.call(
        'GET',
        `${path}${separator}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        { key: org.key },
      );
      expect(response.status).toBe(200);
      const data = response.body.data as Record<string, unknown>[];
      items.push(...data);
      cursor = response.body.cursor as string | null;
      expect(response.body.hasMore).toBe(cursor !== null);
      if (!cursor) return items;
      expect(data).toHaveLength(limit);
    }
    throw new Error(`${path} did not end`);
  }

  beforeAll(async () => {
    expect(
      await raiseShards(service.table, org.organizationId, 'SANDBOX', HOT_ORGANIZATION_SHARDS, { delayMs: 0 }),
    ).toBe(HOT_ORGANIZATION_SHARDS);
    // The service's processes keep the organization's shard count at most this long.
    await new Promise((resolve) => setTimeout(resolve, ORG_SHARDS_CACHE_MS + 500));
    const wallet = async (name: string) =>
      (await service.call('POST', '/v1/wallets', { key: org.key, body: { name } })).body.id as string;
    payer = await wallet('Payer');
    payee = await wallet('Payee');
    await service.call('POST', `/v1/wallets/${payer}/fund`, { key: org.key, body: { amount: '500.00' } });
    for (let batch = 0; batch < PAYMENTS / 6; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          service.call('POST', '/v1/payments', {
            key: org.key,
            body: { from: payer, to: payee, amount: `${batch + 1}.0${i}` },
          }),
        ),
      );
      for (const answer of answers) {
        expect(answer.status).toBe(200);
        paid.push(answer.body.id as string);
      }
    }
    await service.projected();
  }, 120_000);

  it('spreads the payment listing over the shards', async () => {
    const sizes = await Promise.all(
      shardedKeys(`PAYMENTS#${org.organizationId}#SANDBOX`, HOT_ORGANIZATION_SHARDS).map(
        async (pk) =>
          (
            await service.table.client.send(
              new QueryCommand({
                TableName: service.table.tableName,
                KeyConditionExpression: 'PK = :pk',
                ExpressionAttributeValues: { ':pk': pk },
              }),
            )
          ).Count ?? 0,
      ),
    );
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(PAYMENTS);
    expect(sizes.filter((size) => size > 0).length).toBeGreaterThan(2);
  });

  it('lists every payment once, newest first, across pages, and by wallet and status', async () => {
    const whole = await allPages('/v1/payments', 100);
    expect(new Set(whole.map((payment) => payment.id))).toEqual(new Set(paid));
    const order = whole.map((payment) => `${String(payment.createdAt)}#${String(payment.id)}`);
    expect(order).toEqual([...order].sort().reverse());
    expect((await allPages('/v1/payments', 5)).map((payment) => payment.id)).toEqual(whole.map((p) => p.id));
    expect((await allPages(`/v1/payments?walletId=${payee}`, 7)).map((payment) => payment.id)).toEqual(
      whole.map((p) => p.id),
    );
    expect((await allPages('/v1/payments?status=REVERSED', 5)).length).toBe(0);
  });

  it('lists every audit entry of the payments once, filtered by action and by resource, across pages', async () => {
    const entries = await allPages(`/v1/audit-logs?action=${AUDIT.payment.create}`, 5);
    expect(entries.map((entry) => entry.resourceId).sort()).toEqual([...paid].sort());
    expect(new Set(entries.map((entry) => entry.id)).size).toBe(PAYMENTS);
    const order = entries.map((entry) => `${String(entry.createdAt)}#${String(entry.id)}`);
    expect(order).toEqual([...order].sort().reverse());
    const everything = await allPages('/v1/audit-logs', 9);
    for (const entry of entries) expect(everything.map((e) => e.id)).toContain(entry.id);
    const one = await allPages(`/v1/audit-logs?resource=${paid[3]}`, 3);
    expect(one.map((entry) => entry.action)).toEqual([AUDIT.payment.create]);
  });

  it('lists every payment event once, newest first and in the visible-order feed', async () => {
    const events = await allPages('/v1/events?type=payment.posted', 7);
    expect(events.map((event) => (event.data as { id: string }).id).sort()).toEqual([...paid].sort());
    const fed: Record<string, unknown>[] = [];
    let cursor: string | null = null;
    for (let polls = 0; polls < 50; polls++) {
      const response = await service.call(
        'GET',
        `/v1/events?order=visible&type=payment.posted&limit=4${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        { key: org.key },
      );
      expect(response.status).toBe(200);
      fed.push(...(response.body.data as Record<string, unknown>[]));
      cursor = response.body.cursor as string;
      if (!response.body.hasMore && fed.length >= PAYMENTS) break;
      if (!response.body.hasMore) await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(fed.map((event) => event.id).sort()).toEqual(events.map((event) => event.id).sort());
  });
});
