import { describe, expect, it } from 'vitest';
import { setupE2e } from '../fixtures/e2e-setup.js';
import { expectApiError, expectStatus } from '../fixtures/payments-client.js';

/** Defect 7 (issue 9): a key grants only what it holds (decisions.md section 1). */
describe('a key grants only the permissions it holds', () => {
  const { service, ledger, org } = setupE2e({ organizations: { org: 'Grants' } });

  async function agentCount(): Promise<number> {
    const page = await service.call('GET', '/v1/agents?limit=100&includeDeleted=true', { key: org.key });
    expectStatus(page, 200);
    return page.body.data.length as number;
  }

  it('refuses an agent with payments:write from a key holding only wallets:write (403, details.missing), and nothing is created', async () => {
    const writer = await ledger.createKey(org, ['wallets:write'], 'Wallet writer');
    const before = await agentCount();

    const response = await service.call('POST', '/v1/agents', {
      key: writer.key,
      body: { name: 'Escalated', permissions: ['wallets:read', 'payments:write'] },
    });

    const error = expectApiError(response, 403, 'PERMISSION_DENIED');
    expect(error.details?.missing).toEqual(['wallets:read', 'payments:write']);
    expect(response.body.apiKey).toBeUndefined();
    expect(await agentCount()).toBe(before);
  });

  it('refuses the default agent permissions and a paying template to a key that lacks them', async () => {
    const writer = await ledger.createKey(org, ['wallets:write', 'wallets:read'], 'Wallet admin');

    const defaults = await service.call('POST', '/v1/agents', { key: writer.key, body: { name: 'Defaults' } });
    const template = await service.call('POST', '/v1/agents/from-template', {
      key: writer.key,
      body: { name: 'Research', templateId: 'research' },
    });

    expect(expectApiError(defaults, 403, 'PERMISSION_DENIED').details?.missing).toEqual([
      'payments:read',
      'payments:write',
    ]);
    expect(expectApiError(template, 403, 'PERMISSION_DENIED').details?.missing).toEqual([
      'payments:read',
      'payments:write',
    ]);
  });

  it('creates an agent with permissions the key holds, and a read-only template from a key holding its permissions', async () => {
    const key = await ledger.createKey(org, ['wallets:write', 'wallets:read', 'payments:read'], 'Reader maker');

    const agent = await service.call('POST', '/v1/agents', {
      key: key.key,
      body: { name: 'Reader', permissions: ['wallets:read', 'payments:read', 'wallets:read'] },
    });
    const template = await service.call('POST', '/v1/agents/from-template', {
      key: key.key,
      body: { name: 'Tracker', templateId: 'expense-tracker' },
    });

    expectStatus(agent, 201);
    expect(agent.body.permissions).toEqual(['wallets:read', 'payments:read']);
    expectStatus(template, 201);
  });

  it('refuses an API key with a permission the calling admin key lacks (403, details.missing), and creates one it holds', async () => {
    const admin = await ledger.createKey(org, ['admin', 'payments:read'], 'Delegating admin');

    const escalated = await service.call('POST', '/v1/api-keys', {
      key: admin.key,
      body: { name: 'Escalated', permissions: ['payments:read', 'payments:write', 'wallets:write'] },
    });
    const held = await service.call('POST', '/v1/api-keys', {
      key: admin.key,
      body: { name: 'Reader', permissions: ['payments:read', 'payments:read'] },
    });

    expect(expectApiError(escalated, 403, 'PERMISSION_DENIED').details?.missing).toEqual([
      'payments:write',
      'wallets:write',
    ]);
    expect(escalated.body.key).toBeUndefined();
    expectStatus(held, 201);
    expect(held.body.permissions).toEqual(['payments:read']);
  });

  it('closes the escalation path: no agent holding payments:write comes out of a wallets:write key', async () => {
    const writer = await ledger.createKey(org, ['wallets:write'], 'Wallet writer 2');
    const payee = await ledger.fundedWallet(org, undefined, 'Payee');

    const created = await service.call('POST', '/v1/agents', {
      key: writer.key,
      body: { name: 'Payer', permissions: ['payments:write'] },
    });

    expectApiError(created, 403, 'PERMISSION_DENIED');
    expect(await ledger.balanceOf(org.key, payee)).toBe('0.00000000');
  });

  it('refuses to rotate an agent key holding payments:write from a key holding only wallets:* (403, details.missing); the old key stays, no key is issued', async () => {
    const payer = await service.call('POST', '/v1/agents', { key: org.key, body: { name: 'Rotated payer' } });
    expectStatus(payer, 201);
    const writer = await ledger.createKey(org, ['wallets:read', 'wallets:write'], 'Wallet rotator');
    const keysBefore = await service.call('GET', '/v1/api-keys?limit=100', { key: org.key });

    const rotated = await service.call('POST', `/v1/agents/${payer.body.id}/rotate-key`, { key: writer.key });

    expect(expectApiError(rotated, 403, 'PERMISSION_DENIED').details?.missing).toEqual([
      'payments:read',
      'payments:write',
    ]);
    expect(rotated.body.apiKey).toBeUndefined();
    const keysAfter = await service.call('GET', '/v1/api-keys?limit=100', { key: org.key });
    expect(keysAfter.body.data.length).toBe(keysBefore.body.data.length);
    expectStatus(await service.call('GET', `/v1/wallets/${payer.body.id}/balance`, { key: payer.body.apiKey }), 200);
    expect((await service.call('GET', `/v1/agents/${payer.body.id}`, { key: org.key })).body.apiKeyId).toBe(
      payer.body.apiKeyId,
    );
  });

  it('rotates an agent key from a key holding every permission of it', async () => {
    const reader = await service.call('POST', '/v1/agents', {
      key: org.key,
      body: { name: 'Rotated reader', permissions: ['wallets:read', 'payments:read'] },
    });
    const rotator = await ledger.createKey(org, ['wallets:write', 'wallets:read', 'payments:read'], 'Reader rotator');

    const rotated = await service.call('POST', `/v1/agents/${reader.body.id}/rotate-key`, { key: rotator.key });

    expectStatus(rotated, 200);
    expectStatus(await service.call('GET', `/v1/wallets/${reader.body.id}/balance`, { key: rotated.body.apiKey }), 200);
  });

  it('checks validation first: admin for an agent is 400 VALIDATION_ERROR even from a key lacking it', async () => {
    const writer = await ledger.createKey(org, ['wallets:write'], 'Wallet writer 3');

    const response = await service.call('POST', '/v1/agents', {
      key: writer.key,
      body: { name: 'Admin agent', permissions: ['admin'] },
    });

    expectApiError(response, 400, 'VALIDATION_ERROR');
  });
});
