import { afterAll, beforeAll, describe, it } from 'vitest';
import {
  activateProduction,
  createApiKey,
  expectError,
  expectSecurityHeaders,
  type Organization,
} from '../fixtures/organizations.js';
import { startTestService, type TestService } from '../fixtures/local-service.js';

/** decisions.md section 1: key (401) -> environment (403) -> permission (403) -> validation (400) -> lookup (404) -> rules. */
describe('order of checks', () => {
  let service: TestService;
  let org: Organization;
  let liveKey: string;
  const notJson = { rawBody: '{"name": ', headers: { 'content-type': 'application/json' } };
  beforeAll(async () => {
    service = await startTestService();
    org = await service.createOrganization('Order Org');
    await activateProduction(service, org);
    liveKey = (
      await createApiKey(service, org, { permissions: ['wallets:read', 'wallets:write'], environment: 'PRODUCTION' })
    ).key;
  });
  afterAll(() => service.close());

  it('answers 401 UNAUTHORIZED before validating a body with unknown fields', async () => {
    expectError(await service.call('POST', '/v1/wallets', { body: { name: 'x', balance: '5' } }), 401, 'UNAUTHORIZED');
  });

  it('answers 401 UNAUTHORIZED before parsing a body that is not JSON', async () => {
    const response = await service.call('POST', '/v1/wallets', notJson);
    expectError(response, 401, 'UNAUTHORIZED');
    expectSecurityHeaders(response);
  });

  it('answers 401 API_KEY_REVOKED to a revoked key before parsing a body that is not JSON', async () => {
    // Prepare
    const created = await createApiKey(service, org, { permissions: ['wallets:write'] });
    await service.call('DELETE', `/v1/api-keys/${created.id}`, { key: org.key });

    // Act
    const response = await service.call('POST', '/v1/wallets', { key: created.key, ...notJson });

    // Assess
    expectError(response, 401, 'API_KEY_REVOKED');
  });

  it('answers 403 PERMISSION_DENIED to the operator key on /v1/wallets before parsing the body', async () => {
    expectError(
      await service.call('POST', '/v1/wallets', { key: service.adminKey, ...notJson }),
      403,
      'PERMISSION_DENIED',
    );
  });

  it('answers 403 PERMISSION_DENIED before validating the body', async () => {
    const reader = await createApiKey(service, org, { permissions: ['wallets:read'] });
    expectError(
      await service.call('POST', '/v1/wallets', { key: reader.key, body: { status: 'FROZEN' } }),
      403,
      'PERMISSION_DENIED',
    );
  });

  it('answers 405 METHOD_NOT_ALLOWED to PUT /v1/wallets whatever the body', async () => {
    expectError(await service.call('PUT', '/v1/wallets', { key: org.key, ...notJson }), 405, 'METHOD_NOT_ALLOWED');
  });

  it('answers 404 NOT_FOUND to an unknown route whatever the body', async () => {
    expectError(await service.call('POST', '/v1/unknown', { key: org.key, ...notJson }), 404, 'NOT_FOUND');
  });

  it('answers 403 SANDBOX_ONLY to a live key funding, before the amount is checked', async () => {
    expectError(
      await service.call('POST', `/v1/wallets/${org.mainWalletId}/fund`, { key: liveKey, body: { amount: '-1' } }),
      403,
      'SANDBOX_ONLY',
    );
  });

  it('answers 403 SANDBOX_ONLY to a live key funding, before the body is validated', async () => {
    expectError(
      await service.call('POST', `/v1/wallets/${org.mainWalletId}/fund`, {
        key: liveKey,
        body: { amount: '1.00', memo: 'x' },
      }),
      403,
      'SANDBOX_ONLY',
    );
  });

  it('answers 400 INVALID_AMOUNT before looking up an unknown wallet', async () => {
    expectError(
      await service.call('POST', '/v1/wallets/wal_doesnotexist000000000000/fund', {
        key: org.key,
        body: { amount: '0' },
      }),
      400,
      'INVALID_AMOUNT',
    );
  });
});
