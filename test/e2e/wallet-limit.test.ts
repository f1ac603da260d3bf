import { describe, expect, it } from 'vitest';
import { setupE2e } from '../fixtures/e2e-setup.js';
import { countWallets, createWallet, expectError } from '../fixtures/organizations.js';

const WALLET_LIMIT = 3;

describe('wallet limit per environment', () => {
  const { service } = setupE2e({ env: { WALLET_LIMIT_PER_ENVIRONMENT: String(WALLET_LIMIT) } });

  it('answers 403 WALLET_LIMIT_EXCEEDED once the main wallet and two more reach the limit', async () => {
    // Prepare
    const org = await service.createOrganization('Limited Org');
    await createWallet(service, org.key, 'second');
    await createWallet(service, org.key, 'third');

    // Act
    const response = await service.call('POST', '/v1/wallets', { key: org.key, body: { name: 'fourth' } });

    // Assess
    expectError(response, 403, 'WALLET_LIMIT_EXCEEDED');
    expect(await countWallets(service, org.key)).toBe(WALLET_LIMIT);
  });

  it('counts the limit per organization', async () => {
    // Prepare
    const full = await service.createOrganization('Full Org');
    await createWallet(service, full.key);
    await createWallet(service, full.key);
    const fresh = await service.createOrganization('Fresh Org');

    // Act
    const response = await service.call('POST', '/v1/wallets', { key: fresh.key, body: { name: 'allowed' } });

    // Assess
    expect(response.status).toBe(201);
  });

  it('never exceeds the limit under concurrent creation', async () => {
    // Prepare
    const org = await service.createOrganization('Racing Org');

    // Act
    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        service.call('POST', '/v1/wallets', { key: org.key, body: { name: `race ${i}` } }),
      ),
    );

    // Assess
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(WALLET_LIMIT - 1);
    for (const r of responses.filter((r) => r.status !== 201)) expectError(r, 403, 'WALLET_LIMIT_EXCEEDED');
    expect(await countWallets(service, org.key)).toBe(WALLET_LIMIT);
  });
});
