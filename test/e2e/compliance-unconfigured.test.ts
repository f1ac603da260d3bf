import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENV } from '../../shared/config/env-names.js';
import {
  allPassingExcept,
  expectComplianceShape,
  putWebhook,
  statusesOf,
  type ComplianceBody,
} from '../fixtures/compliance-controls.js';
import { startTestService, type TestService } from '../fixtures/local-service.js';

describe('compliance: GET /v1/internal/compliance without WEBHOOK_ENCRYPTION_KEY and MCP_AUTH_TOKEN', () => {
  let service: TestService;
  beforeAll(async () => {
    // The server reads its configuration once per process: this file runs without both settings.
    delete process.env[ENV.webhookEncryptionKey];
    delete process.env[ENV.mcpAuthToken];
    delete process.env[ENV.mcpAuthTokenSecretArn];
    service = await startTestService();
  });
  afterAll(() => service.close());

  async function check(): Promise<ComplianceBody> {
    const response = await service.call('GET', '/v1/internal/compliance', { key: service.adminKey });
    expect(response.status, response.text).toBe(200);
    expectComplianceShape(response.body);
    return response.body;
  }

  it('fails key_configured, warns mcp_auth_token and (with no webhook) webhook_secrets: non_compliant', async () => {
    // Act
    const result = await check();

    // Assess
    expect(statusesOf(result)).toEqual(
      allPassingExcept({
        'encryption.key_configured': 'fail',
        'access_control.mcp_auth_token': 'warn',
        'encryption.webhook_secrets': 'warn',
      }),
    );
    expect(result.status).toBe('non_compliant');
    expect(result.summary).toEqual({ total: 6, passed: 3, failed: 1, warnings: 2 });
  });

  it('fails webhook_secrets once a secret is stored in plain text', async () => {
    // Prepare
    await putWebhook(service.table, 'whsec_cGxhaW4tdGV4dC1zaWduaW5nLXNlY3JldA==');

    // Act
    const result = await check();

    // Assess
    expect(statusesOf(result)).toEqual(
      allPassingExcept({
        'encryption.key_configured': 'fail',
        'access_control.mcp_auth_token': 'warn',
        'encryption.webhook_secrets': 'fail',
      }),
    );
    expect(result.summary).toEqual({ total: 6, passed: 3, failed: 2, warnings: 1 });
  });
});
