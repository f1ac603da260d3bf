import { describe, expect, it } from 'vitest';
import { setupE2e } from '../fixtures/e2e-setup.js';
import { expectApiError, expectStatus } from '../fixtures/agents-client.js';

describe('agents: key rotation', () => {
  const { service, agents: api } = setupE2e();

  it('returns a new raw key, its id and the revoked key id; the old key answers 401 API_KEY_REVOKED at once', async () => {
    // Prepare
    const org = await service.createOrganization();
    const agent = await api.createAgent(org, { name: 'Rotating' });

    // Act
    const response = await api.call('POST', `/v1/agents/${agent.id}/rotate-key`, { key: org.key });

    // Assess
    const rotated = expectStatus(response, 200);
    expect(rotated.apiKey).toMatch(/^svc_test_[A-Za-z0-9]{38}$/);
    expect(rotated.apiKey).not.toBe(agent.apiKey);
    expect(rotated.apiKeyId).toMatch(/^key_/);
    expect(rotated.apiKeyId).not.toBe(agent.apiKeyId);
    expect(rotated.revokedKeyId).toBe(agent.apiKeyId);
    expectApiError(
      await api.call('GET', `/v1/wallets/${agent.id}/balance`, { key: agent.apiKey }),
      401,
      'API_KEY_REVOKED',
    );
    expectStatus(await api.call('GET', `/v1/wallets/${agent.id}/balance`, { key: rotated.apiKey }), 200);
  });

  it('gives the new key the same permissions and wallet scope as the old one', async () => {
    // Prepare
    const org = await service.createOrganization();
    const agent = await api.createAgent(org, { name: 'Limited', permissions: ['wallets:read', 'payments:read'] });
    const other = await api.createAgent(org, { name: 'Neighbour' });
    await api.fundAgent(org, agent.id, 10);

    // Act
    const rotated = expectStatus(await api.call('POST', `/v1/agents/${agent.id}/rotate-key`, { key: org.key }), 200);

    // Assess
    expectStatus(await api.call('GET', `/v1/wallets/${agent.id}`, { key: rotated.apiKey }), 200);
    expectApiError(await api.call('GET', `/v1/wallets/${other.id}`, { key: rotated.apiKey }), 404, 'WALLET_NOT_FOUND');
    expectApiError(
      await api.call('GET', `/v1/wallets/${org.mainWalletId}/balance`, { key: rotated.apiKey }),
      404,
      'WALLET_NOT_FOUND',
    );
    expectApiError(await api.pay(rotated.apiKey, agent.id, other.id, '1.00'), 403, 'PERMISSION_DENIED');
    const keys = await api.listApiKeys(org);
    const newKey = keys.find((k) => k.id === rotated.apiKeyId);
    expect(newKey).toMatchObject({ walletId: agent.id, status: 'ACTIVE' });
    expect([...newKey!.permissions].sort()).toEqual(['payments:read', 'wallets:read']);
    expect(keys.find((k) => k.id === agent.apiKeyId)).toMatchObject({ walletId: agent.id, status: 'REVOKED' });
  });

  it('lets the rotated key pay from its wallet', async () => {
    // Prepare
    const org = await service.createOrganization();
    const agent = await api.createAgent(org, { name: 'Payer' });
    await api.fundAgent(org, agent.id, 10);
    const rotated = expectStatus(await api.call('POST', `/v1/agents/${agent.id}/rotate-key`, { key: org.key }), 200);

    // Act
    const payment = await api.pay(rotated.apiKey, agent.id, org.mainWalletId, '4.00');

    // Assess
    expect(expectStatus(payment, 200).status).toBe('POSTED');
    expectApiError(await api.pay(agent.apiKey, agent.id, org.mainWalletId, '1.00'), 401, 'API_KEY_REVOKED');
    expect(await api.balanceOf(org, agent.id)).toBe('6.00000000');
    await api.expectLedgerBalanced();
  });

  it('shows the new key as the agent key in GET /v1/agents/:id', async () => {
    // Prepare
    const org = await service.createOrganization();
    const agent = await api.createAgent(org, { name: 'Shown' });

    // Act
    const rotated = expectStatus(await api.call('POST', `/v1/agents/${agent.id}/rotate-key`, { key: org.key }), 200);

    // Assess
    const details = expectStatus(await api.call('GET', `/v1/agents/${agent.id}`, { key: org.key }), 200);
    expect(details.apiKeyId).toBe(rotated.apiKeyId);
    expect(details.apiKey).toMatchObject({
      id: rotated.apiKeyId,
      status: 'ACTIVE',
      last4: rotated.apiKey.slice(-4),
      lastUsedAt: null,
    });
  });

  it('rotates a paused agent key: the new key reads, payments stay frozen', async () => {
    // Prepare
    const org = await service.createOrganization();
    const agent = await api.createAgent(org, { name: 'Paused' });
    await api.fundAgent(org, agent.id, 10);
    expectStatus(await api.call('POST', `/v1/agents/${agent.id}/pause`, { key: org.key }), 200);

    // Act
    const rotated = expectStatus(await api.call('POST', `/v1/agents/${agent.id}/rotate-key`, { key: org.key }), 200);

    // Assess
    expectStatus(await api.call('GET', `/v1/wallets/${agent.id}/balance`, { key: rotated.apiKey }), 200);
    expectApiError(await api.pay(rotated.apiKey, agent.id, org.mainWalletId, '1.00'), 403, 'WALLET_FROZEN');
  });

  it('never revives a key an admin revoked: rotating an agent whose key is revoked answers 409 INVALID_STATE and issues nothing', async () => {
    // Prepare
    const org = await service.createOrganization();
    const agent = await api.createAgent(org, { name: 'Revoked' });
    expectStatus(await api.call('DELETE', `/v1/api-keys/${agent.apiKeyId}`, { key: org.key }), 200);

    // Act
    const response = await api.call('POST', `/v1/agents/${agent.id}/rotate-key`, { key: org.key });

    // Assess
    const error = expectApiError(response, 409, 'INVALID_STATE');
    expect(error.details).toMatchObject({ apiKeyId: agent.apiKeyId, keyStatus: 'REVOKED' });
    expect(response.body.apiKey).toBeUndefined();
    const keys = await api.listApiKeys(org);
    expect(keys.filter((k) => k.walletId === agent.id).map((k) => [k.id, k.status])).toEqual([
      [agent.apiKeyId, 'REVOKED'],
    ]);
    expectApiError(
      await api.call('GET', `/v1/wallets/${agent.id}/balance`, { key: agent.apiKey }),
      401,
      'API_KEY_REVOKED',
    );
    expect(expectStatus(await api.call('GET', `/v1/agents/${agent.id}`, { key: org.key }), 200).apiKeyId).toBe(
      agent.apiKeyId,
    );
  });

  it('leaves exactly one active key after 10 concurrent rotations, and exactly one returned raw key works', async () => {
    // Prepare
    const org = await service.createOrganization();
    const agent = await api.createAgent(org, { name: 'Contended' });

    // Act
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => api.call('POST', `/v1/agents/${agent.id}/rotate-key`, { key: org.key })),
    );

    // Assess
    const rotated = responses.filter((r) => r.status === 200);
    expect(rotated.length).toBeGreaterThanOrEqual(1);
    for (const response of responses.filter((r) => r.status !== 200)) {
      expect(response.status, response.text).toBe(409);
    }
    const keys = await api.listApiKeys(org);
    const active = keys.filter((k) => k.walletId === agent.id && k.status === 'ACTIVE');
    expect(active).toHaveLength(1);
    const candidates = [agent.apiKey, ...rotated.map((r) => r.body.apiKey as string)];
    const uses = await Promise.all(
      candidates.map((key) => api.call('GET', `/v1/wallets/${agent.id}/balance`, { key })),
    );
    const working = uses.filter((u) => u.status === 200);
    expect(working).toHaveLength(1);
    for (const use of uses.filter((u) => u.status !== 200)) expectApiError(use, 401, 'API_KEY_REVOKED');
    const workingKey = candidates[uses.indexOf(working[0]!)]!;
    const winner = rotated.find((r) => r.body.apiKey === workingKey)!;
    expect(active[0]!.id).toBe(winner.body.apiKeyId);
    const details = expectStatus(await api.call('GET', `/v1/agents/${agent.id}`, { key: org.key }), 200);
    expect(details.apiKeyId).toBe(winner.body.apiKeyId);
  });
});
