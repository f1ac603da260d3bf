import { randomBytes } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as projectorHandler } from '../../functions/journal-projector/handler.js';
import { ENV } from '../../shared/config/env-names.js';
import { RETRY_BASE_MS } from '../../shared/domain/webhooks/backoff.js';
import { agentsApi } from '../fixtures/agents-client.js';
import { eventually } from '../fixtures/eventually.js';
import { startTestService, type TestService } from '../fixtures/local-service.js';
import { ledgerClient, type LedgerClient, type Organization } from '../fixtures/payments-client.js';
import { startReceiver } from '../fixtures/webhook-receiver.js';

/** 3 days become 12 minutes; the first retry waits 42 to 83 ms, the second 83 to 167 ms. */
const TIME_SCALE = 360;

describe('webhooks and events: from a committed change to a signed delivery', () => {
  let service: TestService;
  let ledger: LedgerClient;
  let org: Organization;
  let other: Organization;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const flaky = new Set<string>();

  beforeAll(async () => {
    service = await startTestService({
      [ENV.timeScale]: String(TIME_SCALE),
      [ENV.webhookEncryptionKey]: randomBytes(32).toString('hex'),
    });
    ledger = ledgerClient(service);
    org = await service.createOrganization('Hooked Org');
    other = await service.createOrganization('Other Org');
    receiver = await startReceiver((path, n) => (flaky.has(path) && n <= 2 ? 500 : 200));
  });
  afterAll(async () => {
    await service.close();
    await receiver.close();
  });

  const register = async (key: string, path: string, events: string[] = ['*']) => {
    const response = await service.call('POST', '/v1/webhooks', { key, body: { url: receiver.url(path), events } });
    expect(response.status, response.text).toBe(201);
    return response.body as { id: string; secret: string; url: string; events: string[] };
  };

  it('delivers a signed payment.posted within 1 s of the payment; the signature verifies with the standardwebhooks package', async () => {
    const hook = await register(org.key, '/posted', ['payment.posted']);
    expect(hook.secret).toMatch(/^whsec_/);
    const payer = await ledger.fundedWallet(org, '100.00');
    const payee = await ledger.fundedWallet(org, undefined, 'Payee');

    const paidAt = Date.now();
    const payment = (await ledger.pay(org.key, { from: payer, to: payee, amount: '2.50', description: 'hooked' }))
      .body as { id: string };

    const delivered = await eventually(() => {
      const hit = receiver.at('/posted').find((h) => JSON.parse(h.body).data.id === payment.id);
      if (!hit) throw new Error('not yet');
      return hit;
    });
    expect(delivered.at - paidAt).toBeLessThan(1000);
    const body = new StandardWebhook(hook.secret).verify(
      delivered.body,
      delivered.headers as Record<string, string>,
    ) as Record<string, any>;
    expect(body).toMatchObject({
      id: expect.stringMatching(/^evt_/),
      type: 'payment.posted',
      environment: 'SANDBOX',
      organizationId: org.organizationId,
      data: { id: payment.id, amount: '2.50', status: 'POSTED' },
    });
    expect(Object.keys(body).sort()).toEqual(['createdAt', 'data', 'environment', 'id', 'organizationId', 'type']);
    expect(delivered.headers['webhook-id']).toBe(body.id);
    // Only payment.posted: the fundings before it were not sent to this webhook.
    expect(receiver.at('/posted').every((h) => JSON.parse(h.body).type === 'payment.posted')).toBe(true);

    // The events API has it too, by id and in the list.
    const got = await service.call('GET', `/v1/events/${body.id}`, { key: org.key });
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ id: body.id, object: 'event', type: 'payment.posted', data: { id: payment.id } });
    const listed = await service.call('GET', '/v1/events?type=payment.posted&limit=100', { key: org.key });
    expect(listed.body.data.map((e: { id: string }) => e.id)).toContain(body.id);
    expect(listed.body.data.every((e: { type: string }) => e.type === 'payment.posted')).toBe(true);
    const after = await service.call('GET', `/v1/events?createdAfter=${encodeURIComponent(body.createdAt)}&limit=100`, {
      key: org.key,
    });
    expect(after.body.data.map((e: { id: string }) => e.id)).not.toContain(body.id);
  });

  it('a receiver answering 500 twice then 200 gets three attempts with growing gaps, one delivery log entry each, the same event id', async () => {
    flaky.add('/flaky');
    const hook = await register(org.key, '/flaky', ['wallet.created']);
    await ledger.createWallet(org.key, 'Flaky target');

    await eventually(() => expect(receiver.at('/flaky')).toHaveLength(3));
    const hits = receiver.at('/flaky');
    expect(new Set(hits.map((h) => h.headers['webhook-id'])).size).toBe(1);
    for (const hit of hits) new StandardWebhook(hook.secret).verify(hit.body, hit.headers as Record<string, string>);
    const log = await eventually(async () => {
      const response = await service.call('GET', `/v1/webhooks/${hook.id}/deliveries`, { key: org.key });
      expect(response.body.data).toHaveLength(3);
      return (response.body.data as any[]).slice().reverse();
    });
    expect(log.map((a) => [a.attempt, a.statusCode, a.outcome])).toEqual([
      [1, 500, 'RETRYING'],
      [2, 500, 'RETRYING'],
      [3, 200, 'SUCCEEDED'],
    ]);
    expect(log[2].nextAttemptAt).toBeNull();
    expect(log[0].error).toBe('HTTP 500');
    // The scheduled waits (next attempt minus the end of the attempt): backoff with equal jitter, scaled.
    const wait = (a: any) => Date.parse(a.nextAttemptAt) - Date.parse(a.attemptedAt) - a.durationMs;
    const base = RETRY_BASE_MS / TIME_SCALE;
    expect(wait(log[0])).toBeGreaterThanOrEqual(base / 2 - 2);
    expect(wait(log[0])).toBeLessThanOrEqual(base + 2);
    expect(wait(log[1])).toBeGreaterThanOrEqual(base - 2);
    expect(wait(log[1])).toBeLessThanOrEqual(2 * base + 2);
    // And the receiver saw no retry before its scheduled time (late is allowed: a loaded machine delays it).
    expect(hits[1]!.at).toBeGreaterThanOrEqual(Date.parse(log[0].nextAttemptAt) - 5);
    expect(hits[2]!.at).toBeGreaterThanOrEqual(Date.parse(log[1].nextAttemptAt) - 5);
  });

  it('a redelivered stream record (the projector run twice on it) produces one event and one delivery, not two', async () => {
    await register(org.key, '/twice', ['payment.posted']);
    const payer = await ledger.fundedWallet(org, '10.00');
    const payee = await ledger.fundedWallet(org, undefined, 'Payee');
    const payment = (await ledger.pay(org.key, { from: payer, to: payee, amount: '1.00' })).body as { id: string };
    await eventually(() =>
      expect(receiver.at('/twice').filter((h) => JSON.parse(h.body).data.id === payment.id)).toHaveLength(1),
    );

    const item = (
      await service.app.core.table.client.send(
        new GetCommand({ TableName: service.table.tableName, Key: { PK: `TXN#${payment.id}`, SK: 'TXN' } }),
      )
    ).Item!;
    const record = {
      eventID: '1',
      eventName: 'INSERT' as const,
      dynamodb: { NewImage: marshall(item, { removeUndefinedValues: true }) as never, SequenceNumber: '1' },
    };
    for (let run = 0; run < 2; run += 1)
      expect(await projectorHandler({ Records: [record] })).toEqual({ batchItemFailures: [] });
    await new Promise((resolve) => setTimeout(resolve, 300));

    expect(receiver.at('/twice').filter((h) => JSON.parse(h.body).data.id === payment.id)).toHaveLength(1);
    const events = await service.call('GET', '/v1/events?type=payment.posted&limit=100', { key: org.key });
    expect(events.body.data.filter((e: any) => e.data.id === payment.id)).toHaveLength(1);
  });

  it('keeps the secret secret: shown once, stored encrypted, never in a list, a read, an event or the audit log', async () => {
    const hook = await register(org.key, '/secret');
    const list = await service.call('GET', '/v1/webhooks', { key: org.key });
    const read = await service.call('GET', `/v1/webhooks/${hook.id}`, { key: org.key });
    expect(list.body.data.map((w: { id: string }) => w.id)).toContain(hook.id);
    for (const text of [list.text, read.text]) {
      expect(text).not.toContain(hook.secret);
      expect(text).not.toContain('"secret"');
    }
    const stored = (
      await service.app.core.table.client.send(
        new GetCommand({ TableName: service.table.tableName, Key: { PK: `WEBHOOK#${hook.id}`, SK: 'WEBHOOK' } }),
      )
    ).Item!;
    expect(stored.secret).toMatch(/^[0-9a-f]{24}:[0-9a-f]{32}:[0-9a-f]+$/);
    expect(JSON.stringify(stored)).not.toContain(hook.secret.slice(6));
    await service.projected();
    const events = await service.call('GET', '/v1/events?limit=100', { key: org.key });
    const audit = await service.call('GET', '/v1/audit-logs?limit=100', { key: org.key });
    for (const text of [events.text, audit.text]) expect(text).not.toContain(hook.secret.slice(6));
    expect(
      audit.body.data.some((entry: any) => entry.action === 'webhook.create' && entry.resourceId === hook.id),
    ).toBe(true);
    const compliance = await service.call('GET', '/v1/internal/compliance', { key: service.adminKey });
    if (compliance.status === 200) expect(JSON.stringify(compliance.body)).not.toContain(hook.secret.slice(6));
  });

  it('scopes webhooks to their organization (404), to organization keys with admin (403), and deletes them', async () => {
    const hook = await register(org.key, '/scoped');
    for (const [method, path] of [
      ['GET', `/v1/webhooks/${hook.id}`],
      ['DELETE', `/v1/webhooks/${hook.id}`],
      ['GET', `/v1/webhooks/${hook.id}/deliveries`],
      ['POST', `/v1/webhooks/${hook.id}/test`],
    ] as const) {
      const response = await service.call(method, path, { key: other.key });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.body.error.code).toBe('WEBHOOK_NOT_FOUND');
    }
    const agent = await agentsApi(service).createAgent(org, { name: 'No hooks' });
    expect((await service.call('GET', '/v1/webhooks', { key: agent.apiKey })).status).toBe(403);
    expect(
      (
        await service.call('POST', '/v1/webhooks', {
          key: agent.apiKey,
          body: { url: receiver.url('/x'), events: ['*'] },
        })
      ).status,
    ).toBe(403);

    const bad = await service.call('POST', '/v1/webhooks', {
      key: org.key,
      body: { url: 'ftp://example.com/x', events: ['*'] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.field).toBe('url');
    expect(
      (
        await service.call('POST', '/v1/webhooks', {
          key: org.key,
          body: { url: receiver.url('/x'), events: ['no.such'] },
        })
      ).status,
    ).toBe(400);

    expect((await service.call('DELETE', `/v1/webhooks/${hook.id}`, { key: org.key })).status).toBe(200);
    expect((await service.call('GET', `/v1/webhooks/${hook.id}`, { key: org.key })).status).toBe(404);
  });

  it('sends a webhook.test event on request and retries one delivery on request (same event id)', async () => {
    const hook = await register(org.key, '/test-me', ['payment.posted']);
    const queued = await service.call('POST', `/v1/webhooks/${hook.id}/test`, { key: org.key });
    expect(queued.status).toBe(202);
    await eventually(() => expect(receiver.at('/test-me')).toHaveLength(1));
    const first = receiver.at('/test-me')[0]!;
    expect(JSON.parse(first.body)).toMatchObject({ type: 'webhook.test', data: { webhookId: hook.id } });
    new StandardWebhook(hook.secret).verify(first.body, first.headers as Record<string, string>);

    const retried = await service.call('POST', `/v1/webhooks/${hook.id}/deliveries/${queued.body.deliveryId}/retry`, {
      key: org.key,
    });
    expect(retried.status).toBe(202);
    await eventually(() => expect(receiver.at('/test-me')).toHaveLength(2));
    expect(receiver.at('/test-me')[1]!.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(
      (await service.call('POST', `/v1/webhooks/${hook.id}/deliveries/dlv_nope/retry`, { key: org.key })).status,
    ).toBe(404);
  });

  it("events API: an agent key sees only its own wallet's events; other organizations' ids answer 404", async () => {
    const api = agentsApi(service);
    const agent = await api.createAgent(org, { name: 'Event reader' });
    const sibling = await api.createAgent(org, { name: 'Sibling' });
    await service.projected();
    const mine = await eventually(async () => {
      const response = await service.call('GET', '/v1/events?limit=100', { key: agent.apiKey });
      expect(response.status).toBe(200);
      expect(response.body.data.some((e: any) => e.type === 'agent.created' && e.data.id === agent.id)).toBe(true);
      return response.body.data as any[];
    });
    expect(mine.some((e) => e.data.id === sibling.id)).toBe(false);
    const orgEvents = (await service.call('GET', '/v1/events?type=agent.created&limit=100', { key: org.key })).body
      .data as any[];
    const siblingEvent = orgEvents.find((e) => e.data.id === sibling.id)!;
    expect((await service.call('GET', `/v1/events/${siblingEvent.id}`, { key: agent.apiKey })).status).toBe(404);
    const otherResponse = await service.call('GET', `/v1/events/${siblingEvent.id}`, { key: other.key });
    expect(otherResponse.status).toBe(404);
    expect(otherResponse.body.error.code).toBe('EVENT_NOT_FOUND');
    expect((await service.call('GET', '/v1/events?createdAfter=yesterday', { key: org.key })).status).toBe(400);
  });
});
