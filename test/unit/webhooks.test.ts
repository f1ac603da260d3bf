import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { mockClient } from 'aws-sdk-client-mock';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { EVENT_DECLARATIONS } from '../../shared/domain/event-names.js';
import { viewOf } from '../../shared/domain/view-registry.js';
import { walletsOfEvent } from '../../shared/domain/events/event-scope.js';
import { webhookBodyOf } from '../../shared/domain/events/event-view.js';
import { projectionsOf } from '../../shared/domain/ledger/journal-projection.js';
import {
  nextAttemptAt,
  retryDelayMs,
  RETRY_BASE_MS,
  RETRY_CAP_MS,
  RETRY_WINDOW_MS,
} from '../../shared/domain/webhooks/backoff.js';
import { createDeliveryService, SECRET_UNAVAILABLE } from '../../shared/domain/webhooks/delivery-service.js';
import type { DeliveryMessage } from '../../shared/domain/webhooks/ports.js';
import type { DeliveryAttempt, WebhookDelivery } from '../../shared/domain/webhooks/types.js';
import { EMITTED_EVENTS } from '../../shared/events/catalog.js';
import { eventBridgePublisher, PartialPublishError, PUT_EVENTS_ATTEMPTS } from '../../shared/events/publishers.js';
import { secretCipher } from '../../shared/webhooks/secret-cipher.js';
import { newWebhookSecret, signPayload, webhookHeaders } from '../../shared/webhooks/signature.js';
import { checkWebhookUrl, isBlockedAddress } from '../../shared/webhooks/url-guard.js';

const event = {
  id: 'evt_1',
  type: 'payment.posted',
  organizationId: 'org_1',
  environment: 'SANDBOX' as const,
  createdAt: '2026-11-22T10:00:00.000Z',
  data: { id: 'txn_1', from: 'wal_a', to: 'wal_b' },
};

describe('webhook signature (Standard Webhooks)', () => {
  it('verifies with the standardwebhooks package, and fails on a changed body or another secret', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    const body = JSON.stringify(webhookBodyOf(event));
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = webhookHeaders(secret, event.id, timestamp, body);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new StandardWebhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new StandardWebhook(secret).verify(body.replace('txn_1', 'txn_2'), headers)).toThrow();
    expect(() => new StandardWebhook(newWebhookSecret()).verify(body, headers)).toThrow();
  });

  it('signs "id.timestamp.body" exactly as the library does', () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const date = new Date(1_700_000_000_000);
    expect(signPayload(secret, 'msg_1', 1_700_000_000, '{"a":1}')).toBe(
      new StandardWebhook(secret).sign('msg_1', date, '{"a":1}'),
    );
  });
});

describe('retry schedule', () => {
  it('grows exponentially with equal jitter: every gap longer than the one before, until the cap', () => {
    for (let attempt = 1; attempt < 12; attempt += 1) {
      const ceiling = Math.min(RETRY_BASE_MS * 2 ** (attempt - 1), RETRY_CAP_MS);
      expect(retryDelayMs(attempt, 0)).toBe(ceiling / 2);
      expect(retryDelayMs(attempt, 0.999999)).toBeLessThan(ceiling);
      if (ceiling * 2 <= RETRY_CAP_MS)
        expect(retryDelayMs(attempt + 1, 0)).toBeGreaterThan(retryDelayMs(attempt, 0.999999));
    }
    expect(retryDelayMs(50, 0.5)).toBeLessThanOrEqual(RETRY_CAP_MS);
  });

  it('retries for 3 days, then stops (divided by the time scale in sandbox)', () => {
    for (const scale of [1, 60, 86_400]) {
      let now = 0;
      let attempt = 1;
      let next = nextAttemptAt({ attempt, firstAttemptAt: 0, now, scale, random: 0.5 });
      while (next !== null) {
        now = next;
        attempt += 1;
        next = nextAttemptAt({ attempt, firstAttemptAt: 0, now, scale, random: 0.5 });
      }
      expect(now).toBeLessThanOrEqual(RETRY_WINDOW_MS / scale);
      expect(now).toBeGreaterThan(RETRY_WINDOW_MS / scale - RETRY_CAP_MS / scale);
      expect(attempt).toBeGreaterThan(10);
    }
  });
});

describe('SSRF guard', () => {
  const blocked = [
    '127.0.0.1',
    '127.255.255.254',
    '10.0.0.1',
    '10.255.255.255',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '0.0.0.0',
    '100.64.0.1',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fe80::abcd:1%eth0',
    'fc00::1',
    'fd12:3456::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '::ffff:7f00:1',
    '::ffff:a00:1',
    '0:0:0:0:0:ffff:192.168.0.1',
    '::127.0.0.1',
    '64:ff9b::10.0.0.1',
    '[::1]',
  ];
  it.each(blocked)('refuses %s', (ip) => expect(isBlockedAddress(ip)).toBe(true));
  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700::1111', '::ffff:8.8.8.8'])(
    'allows the public address %s',
    (ip) => expect(isBlockedAddress(ip)).toBe(false),
  );

  const resolver = (table: Record<string, string[]>) => async (host: string) => table[host] ?? [];
  it('refuses in production a host name resolving to 10.0.0.1, http, and loopback literals; allows a public https host', async () => {
    const resolve = resolver({
      'internal.example.com': ['10.0.0.1'],
      'mixed.example.com': ['93.184.216.34', '127.0.0.1'],
      'hooks.example.com': ['93.184.216.34'],
    });
    expect(await checkWebhookUrl('https://internal.example.com/hook', 'PRODUCTION', resolve)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/private/),
    });
    expect(await checkWebhookUrl('https://mixed.example.com/hook', 'PRODUCTION', resolve)).toMatchObject({ ok: false });
    expect(await checkWebhookUrl('https://127.0.0.1/hook', 'PRODUCTION', resolve)).toMatchObject({ ok: false });
    expect(await checkWebhookUrl('https://[::ffff:127.0.0.1]/hook', 'PRODUCTION', resolve)).toMatchObject({
      ok: false,
    });
    expect(await checkWebhookUrl('http://hooks.example.com/hook', 'PRODUCTION', resolve)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/https/),
    });
    expect(await checkWebhookUrl('https://user:pw@hooks.example.com/hook', 'PRODUCTION', resolve)).toMatchObject({
      ok: false,
    });
    expect(await checkWebhookUrl('https://hooks.example.com/hook', 'PRODUCTION', resolve)).toMatchObject({ ok: true });
    expect(await checkWebhookUrl('http://127.0.0.1:8080/hook', 'SANDBOX', resolve, { localRun: true })).toMatchObject({
      ok: true,
    });
  });
});

describe('EventBridge publisher', () => {
  const events = Array.from({ length: 12 }, (_, i) => ({ ...event, id: `evt_${i}` }));

  it('puts one entry per event, 10 per call, with the event as detail', async () => {
    const client = mockClient(EventBridgeClient);
    client.on(PutEventsCommand).resolves({ FailedEntryCount: 0, Entries: [] });
    const publisher = eventBridgePublisher(
      new EventBridgeClient({ region: 'us-east-1' }),
      'allowance-bus',
      async () => undefined,
    );
    await publisher.publish(events);
    const calls = client.commandCalls(PutEventsCommand);
    expect(calls.map((call) => call.args[0].input.Entries!.length)).toEqual([10, 2]);
    const entry = calls[0]!.args[0].input.Entries![0]!;
    expect(entry).toMatchObject({ EventBusName: 'allowance-bus', Source: 'allowance', DetailType: 'payment.posted' });
    expect(JSON.parse(entry.Detail!)).toEqual(events[0]);
  });

  it('sends again only the entries EventBridge failed, and reports entries still failing', async () => {
    const client = mockClient(EventBridgeClient);
    client
      .on(PutEventsCommand)
      .resolvesOnce({ FailedEntryCount: 1, Entries: [{ EventId: 'a' }, { ErrorCode: 'ThrottlingException' }] })
      .resolves({ FailedEntryCount: 0, Entries: [{ EventId: 'b' }] });
    const publisher = eventBridgePublisher(
      new EventBridgeClient({ region: 'us-east-1' }),
      'bus',
      async () => undefined,
    );
    await publisher.publish(events.slice(0, 2));
    const calls = client.commandCalls(PutEventsCommand);
    expect(calls).toHaveLength(2);
    expect(JSON.parse(calls[1]!.args[0].input.Entries![0]!.Detail!).id).toBe('evt_1');

    client.reset();
    client.on(PutEventsCommand).callsFake((input: { Entries: unknown[] }) => ({
      FailedEntryCount: input.Entries.length,
      Entries: input.Entries.map(() => ({ ErrorCode: 'InternalFailure' })),
    }));
    await expect(publisher.publish(events.slice(0, 2))).rejects.toBeInstanceOf(PartialPublishError);
    expect(client.commandCalls(PutEventsCommand)).toHaveLength(PUT_EVENTS_ATTEMPTS);
  });
});

describe('event payloads carry public views only', () => {
  const INTERNAL =
    /^(PK|SK|GSI\d(PK|SK)|entityType|ttlEpochS|hash|keyHash|secret|legs|audit|reply|idempotencyFingerprint|fingerprint|requestedByKeyId|requestedBy|approvalExpiresAt|settledBy)$/;
  it.each(EMITTED_EVENTS)('%s: its payload schema names no internal field', (name) => {
    const schema = z.toJSONSchema(viewOf(EVENT_DECLARATIONS[name].payload), {
      io: 'output',
      unrepresentable: 'any',
    }) as { properties?: Record<string, unknown> };
    for (const field of Object.keys(schema.properties ?? {})) expect(field).not.toMatch(INTERNAL);
  });

  it("a projected payment event holds exactly the fields of its payload schema, none of the journal record's internals", async () => {
    const record = {
      id: 'txn_1',
      type: 'PAYMENT',
      organizationId: 'org_1',
      environment: 'SANDBOX',
      createdAt: '2026-11-22T10:00:00.000Z',
      postedAt: '2026-11-22T10:00:00.000Z',
      status: 'POSTED',
      from: 'wal_a',
      to: 'wal_b',
      amount: '1.00',
      currency: 'USD',
      description: 'x',
      idempotencyFingerprint: 'f',
      audit: { action: 'payment.created', actor: { actorType: 'API_KEY', actorId: 'key_1', ipAddress: '1.2.3.4' } },
      legs: [],
      reply: { status: 201 },
    };
    const { events } = await projectionsOf(record as never);
    expect(events).toHaveLength(1);
    const schema = z.toJSONSchema(viewOf(EVENT_DECLARATIONS['payment.posted'].payload), {
      io: 'output',
      unrepresentable: 'any',
    }) as { properties: Record<string, unknown> };
    for (const field of Object.keys(events[0]!.data)) expect(Object.keys(schema.properties)).toContain(field);
    expect(JSON.stringify(events[0])).not.toMatch(/idempotencyFingerprint|key_1|1\.2\.3\.4/);
    expect(walletsOfEvent(events[0]!)).toEqual(['wal_a', 'wal_b']);
  });
});

describe('delivery service', () => {
  it('creates one delivery per (webhook, event): an event seen twice is attempted once; retries keep the event id; dead-letters after the window', async () => {
    let now = Date.parse('2026-11-22T10:00:00.000Z');
    const deliveries = new Map<string, WebhookDelivery>();
    const attempts: DeliveryAttempt[] = [];
    const sent: { message: DeliveryMessage; delayMs: number }[] = [];
    const dead: DeliveryMessage[] = [];
    const headersSeen: string[] = [];
    const webhook = {
      id: 'whk_1',
      organizationId: 'org_1',
      environment: 'SANDBOX' as const,
      url: 'http://127.0.0.1:1/hook',
      events: ['*'],
      description: null,
      status: 'ENABLED' as const,
      secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      createdAt: '',
    };
    const service = createDeliveryService({
      store: {
        getWebhook: async () => webhook,
        enabledWebhooks: async () => [webhook],
        getDelivery: async (id) => deliveries.get(id),
        createDelivery: async (d) => (deliveries.has(d.id) ? false : (deliveries.set(d.id, d), true)),
        saveDelivery: async (d) => void deliveries.set(d.id, d),
        recordAttempt: async (a) => void attempts.push(a),
      },
      queue: {
        send: async (message, delayMs) => void sent.push({ message, delayMs }),
        deadLetter: async (message) => void dead.push(message),
      },
      sender: {
        post: async ({ headers }) => {
          headersSeen.push(headers['webhook-id']!);
          now += 5;
          return { statusCode: 500, error: null };
        },
      },
      secrets: { encrypt: async (s) => s, decrypt: async (s) => s, ready: async () => undefined },
      sign: webhookHeaders,
      clock: { now: () => new Date(now) },
      timeScale: 1,
      random: () => 0.5,
    });
    await service.handle({ kind: 'event', event });
    await service.handle({ kind: 'event', event });
    expect(deliveries.size).toBe(1);
    expect(sent).toHaveLength(1);
    while (sent.length > 0) {
      const { message, delayMs } = sent.shift()!;
      now += delayMs;
      await service.handle(message);
    }
    expect(new Set(headersSeen)).toEqual(new Set(['evt_1']));
    expect(attempts.at(-1)!.outcome).toBe('DEAD_LETTERED');
    expect(attempts.slice(0, -1).every((a) => a.outcome === 'RETRYING' && a.nextAttemptAt !== null)).toBe(true);
    expect(now - Date.parse('2026-11-22T10:00:00.000Z')).toBeLessThanOrEqual(RETRY_WINDOW_MS + 1000);
    expect(dead).toHaveLength(1);
    expect([...deliveries.values()][0]!.status).toBe('DEAD_LETTERED');
  });

  it('records an attempt whose signing secret can not be opened (the key can not be read) as a failure and retries it, without posting', async () => {
    let now = Date.parse('2026-11-22T10:00:00.000Z');
    const attempts: DeliveryAttempt[] = [];
    const sent: { message: DeliveryMessage; delayMs: number }[] = [];
    const posted: string[] = [];
    const logged: unknown[][] = [];
    const webhook = {
      id: 'whk_1',
      organizationId: 'org_1',
      environment: 'SANDBOX' as const,
      url: 'http://127.0.0.1:1/hook',
      events: ['*'],
      description: null,
      status: 'ENABLED' as const,
      secret: 'iv:tag:ciphertext',
      createdAt: '',
    };
    const deliveries = new Map<string, WebhookDelivery>();
    const service = createDeliveryService({
      store: {
        getWebhook: async () => webhook,
        enabledWebhooks: async () => [webhook],
        getDelivery: async (id) => deliveries.get(id),
        createDelivery: async (d) => (deliveries.set(d.id, d), true),
        saveDelivery: async (d) => void deliveries.set(d.id, d),
        recordAttempt: async (a) => void attempts.push(a),
      },
      queue: {
        send: async (message, delayMs) => void sent.push({ message, delayMs }),
        deadLetter: async () => undefined,
      },
      sender: { post: async ({ url }) => (posted.push(url), { statusCode: 200, error: null }) },
      secrets: secretCipher(async () => {
        throw new Error('AccessDeniedException: not authorized to GetSecretValue');
      }),
      sign: webhookHeaders,
      clock: { now: () => new Date(now) },
      timeScale: 1,
      random: () => 0.5,
      log: { error: (...args: unknown[]) => void logged.push(args) },
    });
    await service.handle({
      kind: 'event',
      event: {
        id: 'evt_1',
        type: 'payment.posted',
        organizationId: 'org_1',
        environment: 'SANDBOX',
        createdAt: '2026-11-22T10:00:00.000Z',
        data: {},
      },
    });
    await service.handle(sent.shift()!.message);

    expect(posted).toEqual([]);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ outcome: 'RETRYING', statusCode: null, error: SECRET_UNAVAILABLE });
    expect(attempts[0]!.nextAttemptAt).not.toBeNull();
    const pending = [...deliveries.values()][0]!;
    expect(pending.status).toBe('PENDING');
    expect(sent).toHaveLength(1);
    expect(JSON.stringify(logged)).toContain('AccessDeniedException');

    // A manual retry during the outage fails too, but leaves the delivery and its next automatic attempt as they were.
    await service.handle({ kind: 'attempt', deliveryId: pending.id, manual: true });
    expect(attempts[1]).toMatchObject({ outcome: 'FAILED', error: SECRET_UNAVAILABLE });
    expect(deliveries.get(pending.id)).toMatchObject({
      status: 'PENDING',
      nextAttemptAt: pending.nextAttemptAt,
      attempts: 2,
    });
    expect(sent).toHaveLength(1);
    const queued = sent.shift()!;
    now += queued.delayMs;
    await service.handle(queued.message);
    expect(attempts[2]).toMatchObject({ outcome: 'RETRYING', error: SECRET_UNAVAILABLE });
  });
});
