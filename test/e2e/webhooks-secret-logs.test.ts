import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLogs, type LogCapture } from '../fixtures/log-capture.js';
import { ENV } from '../../shared/config/env-names.js';
import { eventually } from '../fixtures/eventually.js';
import { startTestService, type TestService } from '../fixtures/local-service.js';
import { ledgerClient, type LedgerClient, type Organization } from '../fixtures/payments-client.js';
import { startReceiver } from '../fixtures/webhook-receiver.js';

/**
 * Security (issue 10, "the raw secret never appears in a log"): everything the service writes to
 * the console while a webhook is registered and while deliveries run (one failing with 500, so the
 * error and retry paths log too) is captured and searched for the raw secret and its key material.
 */
describe('webhooks: the raw secret never appears in the logs', () => {
  let service: TestService;
  let ledger: LedgerClient;
  let org: Organization;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let logs: LogCapture | undefined;
  const lines: string[] = [];

  beforeAll(async () => {
    service = await startTestService({
      [ENV.timeScale]: '360',
      [ENV.webhookEncryptionKey]: randomBytes(32).toString('hex'),
    });
    ledger = ledgerClient(service);
    org = await service.createOrganization('Secret Logs Org');
    receiver = await startReceiver((path, n) => (path === '/flaky' && n === 1 ? 500 : 200));
    logs = captureLogs(lines);
  });
  afterAll(async () => {
    logs?.restore();
    await service.close();
    await receiver.close();
  });

  it('logs neither the secret nor its key bytes while registering and delivering', async () => {
    // Prepare
    const registered = await service.call('POST', '/v1/webhooks', {
      key: org.key,
      body: { url: receiver.url('/flaky'), events: ['payment.posted'] },
    });
    expect(registered.status, registered.text).toBe(201);
    const secret = registered.body.secret as string;
    expect(secret).toMatch(/^whsec_/);
    const keyBase64 = secret.slice('whsec_'.length);

    // Act: a payment delivered after one failed attempt (500), and a test event.
    const payer = await ledger.fundedWallet(org, '10.00');
    const payee = await ledger.fundedWallet(org, undefined, 'Payee');
    await ledger.pay(org.key, { from: payer, to: payee, amount: '1.00' });
    expect(
      (await service.call('POST', `/v1/webhooks/${registered.body.id}/test`, { key: org.key })).status,
    ).toBeLessThan(300);
    // Two events, the first attempt answered 500 and retried: three attempts in all.
    await eventually(() => {
      expect(receiver.at('/flaky').some((hit) => hit.body.includes('payment.posted'))).toBe(true);
      expect(receiver.at('/flaky').length).toBeGreaterThanOrEqual(3);
    }, 5_000);

    // Assess: the console was used (the failed attempt is logged or not, either way nothing leaks).
    const logged = lines.join('\n');
    expect(logged).not.toContain(secret);
    expect(logged).not.toContain(keyBase64);
    expect(logged).not.toContain(Buffer.from(keyBase64, 'base64').toString('hex'));
  });
});
