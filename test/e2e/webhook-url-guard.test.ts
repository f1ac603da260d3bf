import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENV } from '../../shared/config/env-names.js';
import { startTestService, type TestService } from '../fixtures/local-service.js';
import { expectValidationError } from '../fixtures/organizations.js';

/**
 * The webhook URL guard over HTTP (docs/api.md "Webhooks: URL rules"), in the sandbox of the local
 * run (the fixture stands for npm start): private, link-local, metadata and IPv4-embedding IPv6
 * receivers are refused however they are spelled; loopback receivers are allowed here only.
 */
describe('webhook URLs: the guard applies in the sandbox of the local run', () => {
  let service: TestService;
  let key: string;

  beforeAll(async () => {
    service = await startTestService({ [ENV.webhookEncryptionKey]: randomBytes(32).toString('hex') });
    key = (await service.createOrganization('Webhook URL Org')).key;
  });
  afterAll(async () => {
    await service.close();
  });

  const create = (url: string) => service.call('POST', '/v1/webhooks', { key, body: { url, events: ['*'] } });

  it.each([
    'http://169.254.169.254/latest/meta-data/',
    'http://metadata.google.internal/computeMetadata/v1/',
    'http://[fd00:ec2::254]/latest/meta-data/',
    'http://10.0.0.1/hook',
    'http://167772161/hook',
    'http://012.0.0.1/hook',
    'http://0xa.1/hook',
    'http://10.1/hook',
    'http://100.64.0.1/hook',
    'http://0.0.0.0/hook',
    'http://[::ffff:127.0.0.1]/hook',
    'http://[::ffff:7f00:1]/hook',
    'http://[::ffff:a9fe:a9fe]/hook',
    'http://[64:ff9b::a9fe:a9fe]/hook',
    'http://[2002:a9fe:a9fe::1]/hook',
    'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hook',
    'http://[fe80::1]/hook',
    'http://[fc00::1]/hook',
  ])('refuses %s with 400 VALIDATION_ERROR naming url', async (url) => {
    expectValidationError(await create(url), 'url');
  });

  it.each(['http://127.0.0.1:9/hook', 'http://2130706433:9/hook', 'http://127.1:9/hook', 'http://[::1]:9/hook'])(
    'allows the loopback receiver %s (local run, sandbox)',
    async (url) => {
      const response = await create(url);
      expect(response.status, response.text).toBe(201);
    },
  );
});
