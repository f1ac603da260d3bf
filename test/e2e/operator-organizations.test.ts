import { describe, expect, it } from 'vitest';
import { setupE2e } from '../fixtures/e2e-setup.js';
import { expectError, expectValidationError } from '../fixtures/organizations.js';

describe('operator organizations endpoint', () => {
  const { service, org } = setupE2e({ organizations: { org: 'Existing Org' } });

  it('creates an organization with a sandbox key holding every organization permission and a main wallet', async () => {
    // Act
    const response = await service.call('POST', '/v1/internal/organizations', {
      key: service.adminKey,
      body: { name: 'Acme AI' },
    });

    // Assess
    expect(response.status).toBe(201);
    expect(response.body.organization).toEqual({
      id: expect.stringMatching(/^org_[A-Za-z0-9]{24,}$/),
      name: 'Acme AI',
    });
    expect(response.body.sandboxKey).toMatch(/^svc_test_[A-Za-z0-9]{38}$/);
    expect(response.body.sandboxKeyId).toMatch(/^key_/);
    const keys = await service.call('GET', '/v1/api-keys', { key: response.body.sandboxKey });
    expect(keys.body.data[0].permissions).toEqual(
      expect.arrayContaining([
        'wallets:read',
        'wallets:write',
        'payments:read',
        'payments:write',
        'invoices:read',
        'invoices:write',
        'cards:sensitive_read',
        'admin',
      ]),
    );
    const wallet = await service.call('GET', `/v1/wallets/${response.body.mainWalletId}`, {
      key: response.body.sandboxKey,
    });
    expect(wallet.status).toBe(200);
    expect(wallet.body).toMatchObject({
      walletType: 'ORG',
      isMain: true,
      environment: 'SANDBOX',
      balance: '0.00000000',
      currency: 'USD',
      status: 'ACTIVE',
    });
  });

  it('answers 403 PERMISSION_DENIED to an organization key', async () => {
    const response = await service.call('POST', '/v1/internal/organizations', { key: org.key, body: { name: 'Nope' } });
    expectError(response, 403, 'PERMISSION_DENIED');
  });

  it('answers 401 UNAUTHORIZED without a key', async () => {
    const response = await service.call('POST', '/v1/internal/organizations', { body: { name: 'Nope' } });
    expectError(response, 401, 'UNAUTHORIZED');
  });

  it('answers 401 UNAUTHORIZED to a malformed key', async () => {
    const response = await service.call('POST', '/v1/internal/organizations', {
      key: 'svc_admin_notarealkey',
      body: { name: 'Nope' },
    });
    expectError(response, 401, 'UNAUTHORIZED');
  });

  it('answers 401 UNAUTHORIZED to a well-formed key with one character changed', async () => {
    const last = service.adminKey.slice(-1);
    const mistyped = service.adminKey.slice(0, -1) + (last === 'a' ? 'b' : 'a');
    const response = await service.call('POST', '/v1/internal/organizations', {
      key: mistyped,
      body: { name: 'Nope' },
    });
    expectError(response, 401, 'UNAUTHORIZED');
  });

  it('answers 401 UNAUTHORIZED to a non-Bearer authorization header', async () => {
    const response = await service.call('POST', '/v1/internal/organizations', {
      headers: { authorization: `Basic ${service.adminKey}` },
      body: { name: 'Nope' },
    });
    expectError(response, 401, 'UNAUTHORIZED');
  });

  it('answers 403 PERMISSION_DENIED to the operator key on /v1/wallets', async () => {
    const list = await service.call('GET', '/v1/wallets', { key: service.adminKey });
    expectError(list, 403, 'PERMISSION_DENIED');
    const create = await service.call('POST', '/v1/wallets', { key: service.adminKey, body: { name: 'x' } });
    expectError(create, 403, 'PERMISSION_DENIED');
  });

  it('answers 400 VALIDATION_ERROR for a missing, empty or unknown field', async () => {
    expectValidationError(
      await service.call('POST', '/v1/internal/organizations', { key: service.adminKey, body: {} }),
      'name',
    );
    expectValidationError(
      await service.call('POST', '/v1/internal/organizations', { key: service.adminKey, body: { name: '  ' } }),
      'name',
    );
    expectValidationError(
      await service.call('POST', '/v1/internal/organizations', {
        key: service.adminKey,
        body: { name: 'X', plan: 'pro' },
      }),
      'plan',
    );
  });

  it('records the operator KYB decision in the activation status', async () => {
    // Prepare
    const target = await service.createOrganization('KYB Org');

    // Act
    const response = await service.call('POST', `/v1/internal/organizations/${target.organizationId}/kyb`, {
      key: service.adminKey,
      body: { status: 'VERIFIED' },
    });

    // Assess
    expect(response.status).toBe(200);
    const status = await service.call('GET', '/v1/activation/status', { key: target.key });
    expect(status.body.kybVerified).toBe(true);
  });

  it('answers 404 ORGANIZATION_NOT_FOUND to a KYB decision on an unknown organization', async () => {
    const response = await service.call('POST', '/v1/internal/organizations/org_doesnotexist000000000000/kyb', {
      key: service.adminKey,
      body: { status: 'VERIFIED' },
    });
    expectError(response, 404, 'ORGANIZATION_NOT_FOUND');
  });

  it('answers 400 VALIDATION_ERROR to a KYB decision outside VERIFIED and REJECTED', async () => {
    const response = await service.call('POST', `/v1/internal/organizations/${org.organizationId}/kyb`, {
      key: service.adminKey,
      body: { status: 'APPROVED' },
    });
    expectValidationError(response, 'status');
  });

  it('answers 403 PERMISSION_DENIED to an organization deciding its own KYB', async () => {
    const response = await service.call('POST', `/v1/internal/organizations/${org.organizationId}/kyb`, {
      key: org.key,
      body: { status: 'VERIFIED' },
    });
    expectError(response, 403, 'PERMISSION_DENIED');
  });
});
