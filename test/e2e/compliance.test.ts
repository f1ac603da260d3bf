import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REQUIRED_SECURITY_HEADERS } from '../../shared/domain/compliance/compliance-rules.js';
import { SECURITY_HEADERS } from '../../shared/http/security-headers.js';
import {
  allPassingExcept,
  CONFIGURED_ENV,
  expectComplianceShape,
  putEncryptedWebhook,
  removePermissions,
  statusesOf,
  type ComplianceBody,
} from '../fixtures/compliance-controls.js';
import { createApiKey, expectError, type Organization } from '../fixtures/organizations.js';
import { startTestService, type ApiResponse, type TestService } from '../fixtures/local-service.js';

const COMPLIANCE_PATH = '/v1/internal/compliance';
/** How far ahead the short-lived key expires; the test waits past it. */
const SHORT_EXPIRY_MS = 2_000;

describe('compliance: GET /v1/internal/compliance with every setting configured', () => {
  let service: TestService;
  let org: Organization;
  beforeAll(async () => {
    service = await startTestService(CONFIGURED_ENV);
    org = await service.createOrganization('Compliance Org');
    await putEncryptedWebhook(service.table);
  });
  afterAll(() => service.close());

  async function check(): Promise<{ response: ApiResponse; result: ComplianceBody }> {
    const response = await service.call('GET', COMPLIANCE_PATH, { key: service.adminKey });
    expect(response.status, response.text).toBe(200);
    expectComplianceShape(response.body);
    return { response, result: response.body };
  }

  describe('access', () => {
    it('answers the operator key 200 with a compliant result', async () => {
      // Act
      const { result } = await check();

      // Assess
      expect(result.status).toBe('compliant');
      expect(result.summary).toEqual({ total: 6, passed: 6, failed: 0, warnings: 0 });
    });

    it('answers 403 PERMISSION_DENIED to an organization key holding every permission, admin included', async () => {
      expectError(await service.call('GET', COMPLIANCE_PATH, { key: org.key }), 403, 'PERMISSION_DENIED');
    });

    it('answers 403 PERMISSION_DENIED to a general admin key and to an agent key', async () => {
      // Prepare
      const admin = await createApiKey(service, org, { name: 'Org admin', permissions: ['admin', 'wallets:read'] });
      const agent = await service.call('POST', '/v1/agents', { key: org.key, body: { name: 'Curious agent' } });
      expect(agent.status, agent.text).toBe(201);

      // Act + Assess
      expectError(await service.call('GET', COMPLIANCE_PATH, { key: admin.key }), 403, 'PERMISSION_DENIED');
      expectError(await service.call('GET', COMPLIANCE_PATH, { key: agent.body.apiKey }), 403, 'PERMISSION_DENIED');
    });

    it('answers 401 UNAUTHORIZED without a key', async () => {
      expectError(await service.call('GET', COMPLIANCE_PATH), 401, 'UNAUTHORIZED');
    });
  });

  describe('headers.security_headers', () => {
    it('passes for exactly the headers the responses carry (the object the middleware applies)', async () => {
      // Act
      const { response, result } = await check();
      const refused = await service.call('GET', COMPLIANCE_PATH, { key: org.key });

      // Assess
      const control = result.controls.find((c) => c.control === 'headers.security_headers')!;
      expect(control.status).toBe('pass');
      for (const name of REQUIRED_SECURITY_HEADERS) {
        expect(control.detail, name).toContain(name);
        expect(response.headers.get(name), name).toBe(SECURITY_HEADERS[name]);
        expect(refused.headers.get(name), `${name} on a 403`).toBe(SECURITY_HEADERS[name]);
      }
    });
  });

  describe('controls flipped through stored keys', () => {
    it('turns non_compliant for an active key stored without permissions, and compliant again once it is revoked', async () => {
      // Prepare
      const key = await createApiKey(service, org, { name: 'Permissionless', permissions: ['wallets:read'] });
      await removePermissions(service.table, key.id);

      // Act
      const flipped = (await check()).result;
      const revoked = await service.call('DELETE', `/v1/api-keys/${key.id}`, { key: org.key });
      const restored = (await check()).result;

      // Assess
      expect(statusesOf(flipped)).toEqual(allPassingExcept({ 'access_control.no_null_permissions': 'fail' }));
      expect(flipped.status).toBe('non_compliant');
      expect(revoked.status, revoked.text).toBe(200);
      expect(restored.status).toBe('compliant');
    });

    it('warns for a key that expired while still active, and is compliant again once it is revoked', async () => {
      // Prepare
      const key = await createApiKey(service, org, {
        name: 'Short-lived',
        permissions: ['wallets:read'],
        expiresAt: new Date(Date.now() + SHORT_EXPIRY_MS).toISOString(),
      });
      const beforeExpiry = (await check()).result;
      await sleep(SHORT_EXPIRY_MS + 500);

      // Act
      const expired = (await check()).result;
      const revoked = await service.call('DELETE', `/v1/api-keys/${key.id}`, { key: org.key });
      const restored = (await check()).result;

      // Assess
      expect(beforeExpiry.status).toBe('compliant');
      expect(statusesOf(expired)).toEqual(allPassingExcept({ 'access_control.expired_keys_revoked': 'warn' }));
      expect(expired.status).toBe('warnings');
      expect(expired.summary).toEqual({ total: 6, passed: 5, failed: 0, warnings: 1 });
      expect(revoked.status, revoked.text).toBe(200);
      expect(restored.status).toBe('compliant');
    });
  });
});
