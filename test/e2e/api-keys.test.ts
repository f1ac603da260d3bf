import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { setupE2e } from '../fixtures/e2e-setup.js';
import { createApiKey, expectError, expectValidationError } from '../fixtures/organizations.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('api keys', () => {
  const { service, org, otherOrg } = setupE2e({ organizations: { org: 'Keys Org', otherOrg: 'Other Org' } });

  const listKeys = async (key = org.key) => {
    const response = await service.call('GET', '/v1/api-keys?limit=100', { key });
    expect(response.status, response.text).toBe(200);
    return response;
  };

  it('creates a sandbox key whose raw value is returned once with the svc_test_ prefix', async () => {
    // Act
    const response = await service.call('POST', '/v1/api-keys', {
      key: org.key,
      body: { name: 'reader', permissions: ['wallets:read'] },
    });

    // Assess
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      id: expect.stringMatching(/^key_/),
      name: 'reader',
      permissions: ['wallets:read'],
      environment: 'SANDBOX',
      expiresAt: null,
    });
    expect(response.body.key).toMatch(/^svc_test_[A-Za-z0-9]{38}$/);
    const use = await service.call('GET', '/v1/wallets', { key: response.body.key });
    expect(use.status).toBe(200);
  });

  it('lists keys as metadata only, never the raw key or its hash', async () => {
    // Prepare
    const created = await createApiKey(service, org, { name: 'secret-holder', permissions: ['wallets:read'] });
    const hash = createHash('sha256').update(created.key).digest('hex');

    // Act
    const response = await listKeys();

    // Assess
    const listed = response.body.data.find((k: { id: string }) => k.id === created.id);
    expect(listed).toMatchObject({
      name: 'secret-holder',
      prefix: 'svc_test_',
      last4: created.key.slice(-4),
      status: 'ACTIVE',
      permissions: ['wallets:read'],
    });
    expect(listed).not.toHaveProperty('key');
    expect(listed).not.toHaveProperty('hash');
    expect(response.text).not.toContain(created.key);
    expect(response.text).not.toContain(created.key.slice(9, 41));
    expect(response.text).not.toContain(hash);
    expect(response.text).not.toContain(org.key);
  });

  it('shows lastUsedAt of a key after it was used', async () => {
    // Prepare
    const created = await createApiKey(service, org, { name: 'used', permissions: ['wallets:read'] });
    const unused = (await listKeys()).body.data.find((k: { id: string }) => k.id === created.id);
    expect(unused.lastUsedAt).toBeNull();

    // Act
    const before = Date.now();
    expect((await service.call('GET', '/v1/wallets', { key: created.key })).status).toBe(200);

    // Assess
    const listed = (await listKeys()).body.data.find((k: { id: string }) => k.id === created.id);
    expect(typeof listed.lastUsedAt).toBe('string');
    expect(new Date(listed.lastUsedAt).getTime()).toBeGreaterThanOrEqual(before - 1000);
  });

  it('answers 401 API_KEY_REVOKED on the very next call after revocation', async () => {
    // Prepare
    const created = await createApiKey(service, org, { name: 'to revoke', permissions: ['wallets:read'] });
    expect((await service.call('GET', '/v1/wallets', { key: created.key })).status).toBe(200);

    // Act
    const revoked = await service.call('DELETE', `/v1/api-keys/${created.id}`, { key: org.key });
    const next = await service.call('GET', '/v1/wallets', { key: created.key });

    // Assess
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id: created.id, status: 'REVOKED', revokedAt: expect.any(String) });
    expect(revoked.body).not.toHaveProperty('key');
    expectError(next, 401, 'API_KEY_REVOKED');
    const listed = (await listKeys()).body.data.find((k: { id: string }) => k.id === created.id);
    expect(listed.status).toBe('REVOKED');
  });

  it('answers 401 API_KEY_REVOKED once a key has expired', async () => {
    // Prepare
    const expiresAt = new Date(Date.now() + 2_000).toISOString();
    const created = await createApiKey(service, org, { name: 'short-lived', permissions: ['wallets:read'], expiresAt });
    expect(created).toMatchObject({ expiresAt });
    expect((await service.call('GET', '/v1/wallets', { key: created.key })).status).toBe(200);

    // Act
    await sleep(Math.max(0, new Date(expiresAt).getTime() - Date.now()) + 300);
    const response = await service.call('GET', '/v1/wallets', { key: created.key });

    // Assess
    expectError(response, 401, 'API_KEY_REVOKED');
  });

  it('answers 400 VALIDATION_ERROR for an expiresAt in the past or not a timestamp', async () => {
    const past = await service.call('POST', '/v1/api-keys', {
      key: org.key,
      body: { name: 'x', permissions: ['wallets:read'], expiresAt: '2020-01-01T00:00:00Z' },
    });
    expectValidationError(past, 'expiresAt');
    const garbage = await service.call('POST', '/v1/api-keys', {
      key: org.key,
      body: { name: 'x', permissions: ['wallets:read'], expiresAt: 'tomorrow' },
    });
    expectValidationError(garbage, 'expiresAt');
  });

  it('answers 400 VALIDATION_ERROR for service:admin, unknown or no permissions', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [['service:admin'], /^permissions/],
      [['wallets:read', 'wallets:delete'], /^permissions/],
      [[], /^permissions$/],
      ['admin', /^permissions$/],
    ];
    for (const [permissions, field] of cases) {
      const response = await service.call('POST', '/v1/api-keys', { key: org.key, body: { name: 'x', permissions } });
      const error = expectError(response, 400, 'VALIDATION_ERROR');
      expect(error.details?.field, JSON.stringify(permissions)).toMatch(field);
    }
  });

  it('answers 400 VALIDATION_ERROR naming an unknown body field', async () => {
    const response = await service.call('POST', '/v1/api-keys', {
      key: org.key,
      body: { name: 'x', permissions: ['wallets:read'], walletId: org.mainWalletId },
    });
    expectValidationError(response, 'walletId');
  });

  it('answers 403 PERMISSION_DENIED to a key without the admin permission', async () => {
    // Prepare
    const limited = await createApiKey(service, org, {
      name: 'no admin',
      permissions: ['wallets:read', 'wallets:write'],
    });

    // Act
    const create = await service.call('POST', '/v1/api-keys', {
      key: limited.key,
      body: { name: 'escalate', permissions: ['admin'] },
    });
    const list = await service.call('GET', '/v1/api-keys', { key: limited.key });
    const revoke = await service.call('DELETE', `/v1/api-keys/${org.keyId}`, { key: limited.key });

    // Assess
    expectError(create, 403, 'PERMISSION_DENIED');
    expectError(list, 403, 'PERMISSION_DENIED');
    expectError(revoke, 403, 'PERMISSION_DENIED');
    expect((await service.call('GET', '/v1/wallets', { key: org.key })).status).toBe(200);
  });

  it('answers 403 PERMISSION_DENIED to a read-only key creating a wallet', async () => {
    const reader = await createApiKey(service, org, { name: 'reader', permissions: ['wallets:read'] });
    const response = await service.call('POST', '/v1/wallets', { key: reader.key, body: { name: 'x' } });
    expectError(response, 403, 'PERMISSION_DENIED');
  });

  it('answers 403 ACTIVATION_REQUIRED for a PRODUCTION key before activation', async () => {
    const response = await service.call('POST', '/v1/api-keys', {
      key: org.key,
      body: { name: 'live', permissions: ['wallets:read'], environment: 'PRODUCTION' },
    });
    expectError(response, 403, 'ACTIVATION_REQUIRED');
    const listed = (await listKeys()).body.data;
    expect(listed.some((k: { environment: string }) => k.environment === 'PRODUCTION')).toBe(false);
  });

  it('answers 404 API_KEY_NOT_FOUND for an unknown key id', async () => {
    const response = await service.call('DELETE', '/v1/api-keys/key_doesnotexist000000000000', { key: org.key });
    expectError(response, 404, 'API_KEY_NOT_FOUND');
  });

  it("answers 404 API_KEY_NOT_FOUND for another organization's key and leaves it working", async () => {
    // Act
    const response = await service.call('DELETE', `/v1/api-keys/${otherOrg.keyId}`, { key: org.key });

    // Assess
    expectError(response, 404, 'API_KEY_NOT_FOUND');
    expect((await service.call('GET', '/v1/wallets', { key: otherOrg.key })).status).toBe(200);
  });

  it("never lists another organization's keys", async () => {
    const ids = (await listKeys()).body.data.map((k: { id: string }) => k.id);
    expect(ids).not.toContain(otherOrg.keyId);
    expect(ids).toContain(org.keyId);
  });
});
