import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENV } from '../../shared/config/env-names.js';
import { startTestService, type TestService } from '../fixtures/local-service.js';
import { expectValidationError } from '../fixtures/organizations.js';

/**
 * The sandbox of a deployed stage (LOCAL_RUN unset, as CDK leaves it; here 0): no loopback
 * receiver, whatever its spelling (docs/api.md "Webhooks: URL rules").
 */
describe('webhook URLs: no loopback receiver in the sandbox of a deployed stage', () => {
  let service: TestService;
  let key: string;

  beforeAll(async () => {
    service = await startTestService({
      [ENV.webhookEncryptionKey]: randomBytes(32).toString('hex'),
      [ENV.localRun]: '0',
    });
    key = (await service.createOrganization('Deployed Webhook Org')).key;
  });
  afterAll(async () => {
    await service.close();
    process.env[ENV.localRun] = '1';
  });

  it.each([
    'http://127.0.0.1:9/hook',
    'http://2130706433:9/hook',
    'http://0177.0.0.1:9/hook',
    'http://0x7f.1:9/hook',
    'http://127.1:9/hook',
    'http://[::1]:9/hook',
  ])('refuses %s with 400 VALIDATION_ERROR naming url', async (url) => {
    const error = expectValidationError(
      await service.call('POST', '/v1/webhooks', { key, body: { url, events: ['*'] } }),
      'url',
    );
    expect(error.message).toMatch(/loopback/);
  });
});
