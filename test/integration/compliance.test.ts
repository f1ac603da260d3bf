import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../shared/config/config.js';
import { REQUIRED_SECURITY_HEADERS } from '../../shared/domain/compliance/compliance-rules.js';
import { SECURITY_HEADERS } from '../../shared/http/security-headers.js';
import { createContainer } from '../../shared/runtime/container.js';
import {
  allPassingExcept,
  CONFIGURED_ENV,
  expectComplianceShape,
  putEncryptedWebhook,
  putWebhook,
  removePermissions,
  setExpiry,
  statusesOf,
  TEST_ENCRYPTION_KEY,
  TEST_MCP_TOKEN,
  type ComplianceBody,
} from '../fixtures/compliance-controls.js';
import { startTestApp } from '../fixtures/service-app.js';
import { AUDIT } from '../../shared/domain/audit/actions.js';

const HOUR_MS = 3_600_000;

/**
 * One table per scenario (webhooks are sampled across the whole table); settings are flipped by
 * building another container from other environment variables over the same table.
 */
async function scenario({ webhook = true }: { webhook?: boolean } = {}) {
  const test = await startTestApp(CONFIGURED_ENV);
  const org = await test.createOrganization('Compliance Org');
  if (webhook) await putEncryptedWebhook(test.table);

  async function check(env: Record<string, string> = CONFIGURED_ENV): Promise<ComplianceBody> {
    const config = loadConfig({ TABLE_NAME: test.table.tableName, DYNAMODB_ENDPOINT: test.table.endpoint, ...env });
    const result = await createContainer(config, { table: test.table }).services.compliance.check();
    expectComplianceShape(result);
    return result;
  }

  async function createKey(expiresAt?: string) {
    const created = await test.app.services.apiKeys.create(org.ctx, AUDIT.apiKey.create, {
      name: 'Compliance key',
      permissions: ['wallets:read'],
      ...(expiresAt ? { expiresAt } : {}),
    });
    return created.apiKey.id;
  }

  const revoke = (keyId: string) => test.app.services.apiKeys.revoke(org.ctx, AUDIT.apiKey.revoke, keyId);

  return { ...test, org, check, createKey, revoke };
}

describe('compliance check (interface-spec 4.11) over DynamoDB Local', () => {
  describe('all controls passing', () => {
    it('is compliant with 6 of 6 controls passed when keys, webhooks and settings are in order', async () => {
      // Prepare
      const { check, createKey } = await scenario();
      await createKey(new Date(Date.now() + 24 * HOUR_MS).toISOString());

      // Act
      const result = await check();

      // Assess
      expect(result.status).toBe('compliant');
      expect(result.summary).toEqual({ total: 6, passed: 6, failed: 0, warnings: 0 });
      expect(statusesOf(result)).toEqual(allPassingExcept({}));
      expect(result.controls.every((c) => c.lastChecked === result.checkedAt)).toBe(true);
      expect(Math.abs(Date.parse(result.checkedAt) - Date.now())).toBeLessThan(60_000);
    });
  });

  describe('access_control.no_null_permissions', () => {
    it('fails, and the result is non_compliant, for an active key stored without permissions', async () => {
      // Prepare
      const { check, createKey, table } = await scenario();
      await removePermissions(table, await createKey());

      // Act
      const result = await check();

      // Assess
      expect(statusesOf(result)).toEqual(allPassingExcept({ 'access_control.no_null_permissions': 'fail' }));
      expect(result.status).toBe('non_compliant');
      expect(result.summary).toEqual({ total: 6, passed: 5, failed: 1, warnings: 0 });
    });

    it('passes again once that key is revoked (only active keys count)', async () => {
      // Prepare
      const { check, createKey, revoke, table } = await scenario();
      const keyId = await createKey();
      await removePermissions(table, keyId);
      await revoke(keyId);

      // Act
      const result = await check();

      // Assess
      expect(result.status).toBe('compliant');
    });
  });

  describe('access_control.expired_keys_revoked', () => {
    it('warns, and the result is warnings, for an expired key that is still active', async () => {
      // Prepare
      const { check, createKey, table } = await scenario();
      await setExpiry(
        table,
        await createKey(new Date(Date.now() + HOUR_MS).toISOString()),
        new Date(Date.now() - HOUR_MS).toISOString(),
      );

      // Act
      const result = await check();

      // Assess
      expect(statusesOf(result)).toEqual(allPassingExcept({ 'access_control.expired_keys_revoked': 'warn' }));
      expect(result.status).toBe('warnings');
      expect(result.summary).toEqual({ total: 6, passed: 5, failed: 0, warnings: 1 });
    });

    it('passes once the expired key is revoked', async () => {
      // Prepare
      const { check, createKey, revoke, table } = await scenario();
      const keyId = await createKey(new Date(Date.now() + HOUR_MS).toISOString());
      await setExpiry(table, keyId, new Date(Date.now() - HOUR_MS).toISOString());
      await revoke(keyId);

      // Act
      const result = await check();

      // Assess
      expect(result.status).toBe('compliant');
    });
  });

  describe('encryption.key_configured', () => {
    it('fails, and the result is non_compliant, when WEBHOOK_ENCRYPTION_KEY is unset', async () => {
      // Prepare
      const { check } = await scenario();

      // Act
      const result = await check({ MCP_AUTH_TOKEN: TEST_MCP_TOKEN });

      // Assess
      expect(statusesOf(result)).toEqual(allPassingExcept({ 'encryption.key_configured': 'fail' }));
      expect(result.status).toBe('non_compliant');
    });

    it('passes in AWS, where the function reads the key from its secret; a secret that does not open the stored secrets fails the sample', async () => {
      // Prepare
      const { check } = await scenario();
      const secrets = mockClient(SecretsManagerClient);
      const env = {
        MCP_AUTH_TOKEN: TEST_MCP_TOKEN,
        WEBHOOK_ENCRYPTION_KEY_SECRET_ARN:
          'arn:aws:secretsmanager:eu-west-1:123456789012:secret:WebhookEncryptionKey-AbCdEf',
      };
      try {
        secrets.on(GetSecretValueCommand).resolves({ SecretString: TEST_ENCRYPTION_KEY });

        // Act
        const result = await check(env);
        secrets.on(GetSecretValueCommand).resolves({ SecretString: 'ab'.repeat(32) });
        const otherKey = await check(env);
        secrets.on(GetSecretValueCommand).rejects(new Error('AccessDeniedException'));
        const unreadable = await check(env);

        // Assess
        expect(statusesOf(result)).toEqual(allPassingExcept({}));
        expect(secrets.commandCalls(GetSecretValueCommand)[0]!.args[0].input).toEqual({
          SecretId: env.WEBHOOK_ENCRYPTION_KEY_SECRET_ARN,
        });
        expect(statusesOf(otherKey)).toEqual(allPassingExcept({ 'encryption.webhook_secrets': 'fail' }));
        // A key that can not be read fails its own control, not the stored secrets' one.
        expect(statusesOf(unreadable)).toEqual(allPassingExcept({ 'encryption.key_configured': 'fail' }));
        expect(unreadable.controls.find((c) => c.control === 'encryption.key_configured')?.detail).toBe(
          'WEBHOOK_ENCRYPTION_KEY is configured but could not be read.',
        );
      } finally {
        secrets.restore();
      }
    });
  });

  describe('access_control.mcp_auth_token', () => {
    it('warns, and the result is warnings, when MCP_AUTH_TOKEN is unset', async () => {
      // Prepare
      const { check } = await scenario();

      // Act
      const result = await check({ WEBHOOK_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY });

      // Assess
      expect(statusesOf(result)).toEqual(allPassingExcept({ 'access_control.mcp_auth_token': 'warn' }));
      expect(result.status).toBe('warnings');
    });

    it('passes in AWS, where the function knows only the ARN of the secret holding the token (never the token)', async () => {
      // Prepare
      const { check } = await scenario();

      // Act
      const result = await check({
        WEBHOOK_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
        MCP_AUTH_TOKEN_SECRET_ARN: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:McpAuthToken-AbCdEf',
      });

      // Assess
      expect(statusesOf(result)).toEqual(allPassingExcept({}));
      expect(result.status).toBe('compliant');
    });
  });

  describe('encryption.webhook_secrets', () => {
    it('warns, and the result is warnings, when no webhook is registered', async () => {
      // Prepare
      const { check } = await scenario({ webhook: false });

      // Act
      const result = await check();

      // Assess
      expect(statusesOf(result)).toEqual(allPassingExcept({ 'encryption.webhook_secrets': 'warn' }));
      expect(result.status).toBe('warnings');
    });

    it.each([
      ['a plain-text secret', 'whsec_c2VjcmV0LXNpZ25pbmcta2V5LWluLXBsYWlu'],
      ['three parts that are not hex', 'not:hex:at-all'],
    ])('fails, and the result is non_compliant, when %s is stored next to an encrypted one', async (_name, secret) => {
      // Prepare
      const { check, table } = await scenario();
      await putWebhook(table, secret);

      // Act
      const result = await check();

      // Assess
      expect(statusesOf(result)).toEqual(allPassingExcept({ 'encryption.webhook_secrets': 'fail' }));
      expect(result.status).toBe('non_compliant');
    });
  });

  describe('headers.security_headers', () => {
    it('passes from the headers object the middleware applies', async () => {
      // Prepare
      const { check } = await scenario();

      // Act
      const control = (await check()).controls.find((c) => c.control === 'headers.security_headers')!;

      // Assess
      expect(control.status).toBe('pass');
      for (const name of REQUIRED_SECURITY_HEADERS) {
        expect(SECURITY_HEADERS[name], name).toMatch(/\S/);
        expect(control.detail, name).toContain(name);
      }
    });
  });

  describe('overall status', () => {
    it('is non_compliant when a failure and a warning occur together', async () => {
      // Prepare
      const { check, createKey, table } = await scenario({ webhook: false });
      await removePermissions(table, await createKey());

      // Act
      const result = await check();

      // Assess
      expect(result.status).toBe('non_compliant');
      expect(result.summary).toEqual({ total: 6, passed: 4, failed: 1, warnings: 1 });
    });
  });
});
