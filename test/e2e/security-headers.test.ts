import { describe, expect, it } from 'vitest';
import { setupE2e } from '../fixtures/e2e-setup.js';
import { expectError, expectSecurityHeaders } from '../fixtures/organizations.js';

describe('security headers', () => {
  const { service, org } = setupE2e({ organizations: { org: 'Test Org' } });

  it('sends every security header on a 200', async () => {
    const response = await service.call('GET', '/v1/wallets', { key: org.key });
    expect(response.status).toBe(200);
    expectSecurityHeaders(response);
  });

  it('sends every security header on a 201', async () => {
    const response = await service.call('POST', '/v1/wallets', { key: org.key, body: { name: 'Headers' } });
    expect(response.status).toBe(201);
    expectSecurityHeaders(response);
  });

  it('sends every security header on a 401 without a key', async () => {
    const response = await service.call('GET', '/v1/wallets');
    expectError(response, 401, 'UNAUTHORIZED');
    expectSecurityHeaders(response);
  });

  it('sends every security header on a 400 validation error', async () => {
    const response = await service.call('GET', '/v1/wallets?limit=0', { key: org.key });
    expectError(response, 400, 'VALIDATION_ERROR');
    expectSecurityHeaders(response);
  });

  it('sends every security header on a 400 for a body that is not JSON', async () => {
    const response = await service.call('POST', '/v1/wallets', {
      key: org.key,
      rawBody: '{not json',
      headers: { 'content-type': 'application/json' },
    });
    expectError(response, 400, 'VALIDATION_ERROR');
    expectSecurityHeaders(response);
  });

  it('sends every security header on a 403', async () => {
    const response = await service.call('GET', '/v1/wallets', { key: service.adminKey });
    expectError(response, 403, 'PERMISSION_DENIED');
    expectSecurityHeaders(response);
  });

  it('sends every security header on a 404 for an unknown wallet', async () => {
    const response = await service.call('GET', '/v1/wallets/wal_doesnotexist000000000000/balance', { key: org.key });
    expectError(response, 404, 'WALLET_NOT_FOUND');
    expectSecurityHeaders(response);
  });

  it('answers 405 METHOD_NOT_ALLOWED with security headers for PUT /v1/wallets', async () => {
    const response = await service.call('PUT', '/v1/wallets', { key: org.key, body: { name: 'x' } });
    expectError(response, 405, 'METHOD_NOT_ALLOWED');
    expectSecurityHeaders(response);
  });

  it('answers 404 NOT_FOUND with security headers for an unknown route', async () => {
    const response = await service.call('GET', '/v1/nothing-here', { key: org.key });
    expectError(response, 404, 'NOT_FOUND');
    expectSecurityHeaders(response);
  });

  it('answers 404 NOT_FOUND with security headers for a path outside /v1 without a key', async () => {
    const response = await service.call('GET', '/');
    expectError(response, 404, 'NOT_FOUND');
    expectSecurityHeaders(response);
  });

  it('answers errors as JSON with a request id', async () => {
    const response = await service.call('DELETE', '/v1/wallets');
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(typeof response.body.error.requestId).toBe('string');
    expectSecurityHeaders(response);
  });
});
