import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../fixtures/local-service.js';
import { expectError } from '../fixtures/organizations.js';

/**
 * A key grants only what it holds (decisions.md section 1, shared/domain/api-keys/grants.ts), its
 * lifetime included (docs/api.md "API keys", "Agents"): a key that expires can not mint a key that
 * outlives it, else a short-lived delegation becomes permanent authority. Asked for beyond its
 * expiry (a later time, or never: a rotated key without expiry) is 403 PERMISSION_DENIED with
 * `details.maxExpiresAt`; none asked (an API key without `expiresAt`, an agent's key), the new key
 * expires with it, and the answer says when. Review finding (h19): a one-hour key minted a
 * never-expiring admin key, and agents whose keys never expire.
 */
describe('a key never mints a key that outlives it', () => {
  let service: TestService;
  let org: Awaited<ReturnType<TestService['createOrganization']>>;
  let shortLived: string;
  let expiresAt: string;
  const ALL = ['admin', 'wallets:read', 'wallets:write', 'payments:read', 'payments:write'];

  beforeAll(async () => {
    service = await startTestService();
    org = await service.createOrganization('Key lifetime');
    const created = await service.call('POST', '/v1/api-keys', {
      key: org.key,
      body: { name: 'one hour', permissions: ALL, expiresAt: new Date(Date.now() + 3600_000).toISOString() },
    });
    expect(created.status, created.text).toBe(201);
    shortLived = created.body.key;
    expiresAt = created.body.expiresAt;
  });
  afterAll(() => service.close());

  const keysOfOrganization = async () =>
    (await service.call('GET', '/v1/api-keys?limit=100', { key: org.key })).body.data as {
      id: string;
      name: string;
      walletId: string | null;
      expiresAt: string | null;
    }[];

  it('gives an API key asked without expiresAt the expiry of the key that mints it, in the answer', async () => {
    const minted = await service.call('POST', '/v1/api-keys', {
      key: shortLived,
      body: { name: 'no expiry asked', permissions: ALL },
    });
    expect(minted.status, minted.text).toBe(201);
    expect(minted.body.expiresAt).toBe(expiresAt);
    expect((await keysOfOrganization()).find((key) => key.id === minted.body.id)?.expiresAt).toBe(expiresAt);
  });

  it('refuses an API key asked to expire later than the key that mints it (403 PERMISSION_DENIED naming the latest allowed), and creates nothing', async () => {
    const later = new Date(Date.now() + 10 * 365 * 24 * 3600_000).toISOString();
    const error = expectError(
      await service.call('POST', '/v1/api-keys', {
        key: shortLived,
        body: { name: 'ten years', permissions: ALL, expiresAt: later },
      }),
      403,
      'PERMISSION_DENIED',
    );
    expect(error.details).toMatchObject({ field: 'expiresAt', maxExpiresAt: expiresAt, expiresAt: later });
    expect((await keysOfOrganization()).some((key) => key.name === 'ten years')).toBe(false);
  });

  it('mints an API key asked to expire at or before the key that mints it as asked', async () => {
    const sooner = new Date(Date.parse(expiresAt) - 600_000).toISOString();
    const minted = await service.call('POST', '/v1/api-keys', {
      key: shortLived,
      body: { name: 'sooner', permissions: ['wallets:read'], expiresAt: sooner },
    });
    expect(minted.status, minted.text).toBe(201);
    expect(minted.body.expiresAt).toBe(sooner);
    const same = await service.call('POST', '/v1/api-keys', {
      key: shortLived,
      body: { name: 'same', permissions: ['wallets:read'], expiresAt },
    });
    expect(same.status, same.text).toBe(201);
  });

  it.each([
    ['POST /v1/agents', '/v1/agents', { name: 'Agent of a temporary key' }],
    [
      'POST /v1/agents/from-template',
      '/v1/agents/from-template',
      { name: 'Template agent of a temporary key', templateId: 'research' },
    ],
  ])(
    'gives an agent created by an expiring key (%s) a key that expires with it, in the answer',
    async (_, path, body) => {
      const agent = await service.call('POST', path, { key: shortLived, body });
      expect(agent.status, agent.text).toBe(201);
      expect(agent.body.apiKeyExpiresAt).toBe(expiresAt);
      const read = await service.call('GET', `/v1/agents/${agent.body.id}`, { key: org.key });
      expect(read.body.apiKey.expiresAt).toBe(expiresAt);
    },
  );

  it('gives an agent created by a key that never expires a key that never expires', async () => {
    const agent = await service.call('POST', '/v1/agents', { key: org.key, body: { name: 'Agent of the root key' } });
    expect(agent.status, agent.text).toBe(201);
    expect(agent.body.apiKeyExpiresAt).toBeNull();
  });

  it('refuses to rotate, with an expiring key, an agent key that never expires; the agent keeps its key', async () => {
    const agent = await service.call('POST', '/v1/agents', { key: org.key, body: { name: 'Permanent agent' } });
    expect(agent.status, agent.text).toBe(201);
    const error = expectError(
      await service.call('POST', `/v1/agents/${agent.body.id}/rotate-key`, { key: shortLived }),
      403,
      'PERMISSION_DENIED',
    );
    expect(error.details).toMatchObject({ field: 'expiresAt', maxExpiresAt: expiresAt, expiresAt: null });
    const stillWorks = await service.call('GET', `/v1/wallets/${agent.body.id}`, { key: agent.body.apiKey });
    expect(stillWorks.status, stillWorks.text).toBe(200);
    expect((await service.call('GET', `/v1/agents/${agent.body.id}`, { key: org.key })).body.apiKeyId).toBe(
      agent.body.apiKeyId,
    );
  });

  it('rotates, with an expiring key, an agent key that expires no later: the new key keeps that expiry', async () => {
    const agent = await service.call('POST', '/v1/agents', { key: shortLived, body: { name: 'Temporary agent' } });
    expect(agent.status, agent.text).toBe(201);
    const rotated = await service.call('POST', `/v1/agents/${agent.body.id}/rotate-key`, { key: shortLived });
    expect(rotated.status, rotated.text).toBe(200);
    expect((await keysOfOrganization()).find((key) => key.id === rotated.body.apiKeyId)?.expiresAt).toBe(expiresAt);
  });
});
