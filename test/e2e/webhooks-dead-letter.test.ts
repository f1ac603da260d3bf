import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENV } from '../../shared/config/env-names.js';
import { RETRY_WINDOW_MS } from '../../shared/domain/webhooks/backoff.js';
import { WEBHOOK_DELIVERY_QUEUE } from '../../shared/workers.js';
import { eventually } from '../fixtures/eventually.js';
import { startTestService, type TestService } from '../fixtures/local-service.js';
import { startReceiver } from '../fixtures/webhook-receiver.js';

/** 3 days become 4 seconds. */
const TIME_SCALE = RETRY_WINDOW_MS / 4_000;

describe('webhooks: a receiver that never answers 2xx', () => {
  let service: TestService;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    service = await startTestService({
      [ENV.timeScale]: String(TIME_SCALE),
      [ENV.webhookEncryptionKey]: randomBytes(32).toString('hex'),
    });
    receiver = await startReceiver(() => 503);
  });
  afterAll(async () => {
    await service.close();
    await receiver.close();
  });

  it(
    'is retried with backoff for the scaled 3 days, then its delivery is dead-lettered',
    { timeout: 20_000 },
    async () => {
      const org = await service.createOrganization('Unreachable');
      const created = await service.call('POST', '/v1/webhooks', {
        key: org.key,
        body: { url: receiver.url('/down'), events: ['wallet.created'] },
      });
      expect(created.status).toBe(201);
      const started = Date.now();
      expect(
        (await service.call('POST', '/v1/wallets', { key: org.key, body: { name: 'Never delivered' } })).status,
      ).toBe(201);

      const log = await eventually(async () => {
        const response = await service.call('GET', `/v1/webhooks/${created.body.id}/deliveries?limit=100`, {
          key: org.key,
        });
        expect(response.body.data[0]?.outcome).toBe('DEAD_LETTERED');
        return response.body.data as any[];
      }, 15_000);
      const elapsed = Date.now() - started;
      expect(elapsed).toBeGreaterThan(RETRY_WINDOW_MS / TIME_SCALE / 2);
      expect(log.length).toBe(receiver.at('/down').length);
      expect(log.length).toBeGreaterThan(10);
      expect(log.slice(1).every((attempt) => attempt.outcome === 'RETRYING' && attempt.statusCode === 503)).toBe(true);
      expect(log[0].nextAttemptAt).toBeNull();
      expect(new Set(receiver.at('/down').map((hit) => hit.headers['webhook-id'])).size).toBe(1);
      // The log entry is written just before the delivery moves to the DLQ.
      await eventually(() => expect(service.workers.deadLetters(WEBHOOK_DELIVERY_QUEUE)).toHaveLength(1));
      // Nothing more comes once dead-lettered.
      const count = receiver.at('/down').length;
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(receiver.at('/down').length).toBe(count);
    },
  );
});
