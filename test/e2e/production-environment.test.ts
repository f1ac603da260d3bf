import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  activateProduction,
  createApiKey,
  createWallet,
  expectError,
  type Organization,
} from '../fixtures/organizations.js';
import { startTestService, type TestService } from '../fixtures/local-service.js';

describe('production environment after activation', () => {
  let service: TestService;
  let org: Organization;
  let liveKey: string;
  let productionWalletId: string;
  beforeAll(async () => {
    service = await startTestService();
    org = await service.createOrganization('Live Org');
    await activateProduction(service, org);
    liveKey = (
      await createApiKey(service, org, {
        name: 'live',
        permissions: ['wallets:read', 'wallets:write', 'admin'],
        environment: 'PRODUCTION',
      })
    ).key;
    productionWalletId = (await createWallet(service, liveKey, 'Production ops')).id;
  });
  afterAll(() => service.close());

  it('creates a svc_live_ key for the PRODUCTION environment', async () => {
    // Act
    const response = await service.call('POST', '/v1/api-keys', {
      key: org.key,
      body: { name: 'live reader', permissions: ['wallets:read'], environment: 'PRODUCTION' },
    });

    // Assess
    expect(response.status, response.text).toBe(201);
    expect(response.body).toMatchObject({ environment: 'PRODUCTION', permissions: ['wallets:read'] });
    expect(response.body.key).toMatch(/^svc_live_[A-Za-z0-9]{38}$/);
  });

  it('creates production wallets with a live key', async () => {
    const wallet = await service.call('GET', `/v1/wallets/${productionWalletId}`, { key: liveKey });
    expect(wallet.status).toBe(200);
    expect(wallet.body).toMatchObject({ environment: 'PRODUCTION', balance: '0.00000000', walletType: 'ORG' });
  });

  it('answers 403 ENVIRONMENT_MISMATCH to a sandbox key naming a production wallet', async () => {
    expectError(
      await service.call('GET', `/v1/wallets/${productionWalletId}/balance`, { key: org.key }),
      403,
      'ENVIRONMENT_MISMATCH',
    );
    expectError(
      await service.call('GET', `/v1/wallets/${productionWalletId}`, { key: org.key }),
      403,
      'ENVIRONMENT_MISMATCH',
    );
    expectError(
      await service.call('POST', `/v1/wallets/${productionWalletId}/fund`, { key: org.key, body: { amount: '5.00' } }),
      403,
      'ENVIRONMENT_MISMATCH',
    );
  });

  it('answers 403 ENVIRONMENT_MISMATCH to a live key naming a sandbox wallet', async () => {
    expectError(
      await service.call('GET', `/v1/wallets/${org.mainWalletId}/balance`, { key: liveKey }),
      403,
      'ENVIRONMENT_MISMATCH',
    );
  });

  it('answers 403 SANDBOX_ONLY to funding with a live key and leaves the balance unchanged', async () => {
    // Act
    const response = await service.call('POST', `/v1/wallets/${productionWalletId}/fund`, {
      key: liveKey,
      body: { amount: '5.00' },
    });

    // Assess
    expectError(response, 403, 'SANDBOX_ONLY');
    const balance = await service.call('GET', `/v1/wallets/${productionWalletId}/balance`, { key: liveKey });
    expect(balance.body.balance).toBe('0.00000000');
  });

  it('lists only production wallets to a live key, including the production main wallet', async () => {
    // Act
    const live = await service.call('GET', '/v1/wallets?limit=100', { key: liveKey });
    const sandbox = await service.call('GET', '/v1/wallets?limit=100', { key: org.key });

    // Assess
    expect(live.body.data.every((w: { environment: string }) => w.environment === 'PRODUCTION')).toBe(true);
    expect(live.body.data.filter((w: { isMain: boolean }) => w.isMain)).toHaveLength(1);
    expect(live.body.data.map((w: { id: string }) => w.id)).toContain(productionWalletId);
    expect(sandbox.body.data.map((w: { id: string }) => w.id)).not.toContain(productionWalletId);
  });

  it('answers 404 WALLET_NOT_FOUND to another organization for a production wallet', async () => {
    const other = await service.createOrganization('Other');
    expectError(
      await service.call('GET', `/v1/wallets/${productionWalletId}/balance`, { key: other.key }),
      404,
      'WALLET_NOT_FOUND',
    );
  });
});
