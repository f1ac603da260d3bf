import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { setupE2e } from '../fixtures/e2e-setup.js';
import { expectApiError, expectStatus, ZERO_BALANCE, type AgentOrganization } from '../fixtures/agents-client.js';

describe('agents: reading', () => {
  const { service, agents: api } = setupE2e();

  async function allAgentIds(org: AgentOrganization, query = '', limit = 2): Promise<string[]> {
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const params = new URLSearchParams(query);
      params.set('limit', String(limit));
      if (cursor) params.set('cursor', cursor);
      const page = expectStatus(await api.call('GET', `/v1/agents?${params}`, { key: org.key }), 200);
      expect(page.data.length).toBeLessThanOrEqual(limit);
      expect(page.hasMore).toBe(page.cursor !== null);
      ids.push(...page.data.map((a: { id: string }) => a.id));
      cursor = page.cursor;
    } while (cursor);
    return ids;
  }

  it('pages through the agents with a cursor, leaving out plain wallets and the main wallet', async () => {
    // Prepare
    const org = await service.createOrganization();
    const agents = await Promise.all(['A', 'B', 'C', 'D', 'E'].map((name) => api.createAgent(org, { name })));
    const plain = await api.createWallet(org);

    // Act
    const ids = await allAgentIds(org);

    // Assess
    expect(ids).toHaveLength(5);
    expect(new Set(ids)).toEqual(new Set(agents.map((a) => a.id)));
    expect(ids).not.toContain(plain);
    expect(ids).not.toContain(org.mainWalletId);
  });

  it('leaves deleted agents out of the list unless includeDeleted=true', async () => {
    // Prepare
    const org = await service.createOrganization();
    const kept = await api.createAgent(org, { name: 'Kept' });
    const gone = await api.createAgent(org, { name: 'Gone' });
    expectStatus(await api.call('DELETE', `/v1/agents/${gone.id}`, { key: org.key }), 200);

    // Act
    const active = await allAgentIds(org);
    const withDeleted = await allAgentIds(org, 'includeDeleted=true');
    const explicitFalse = await allAgentIds(org, 'includeDeleted=false');

    // Assess
    expect(active).toEqual([kept.id]);
    expect(explicitFalse).toEqual([kept.id]);
    expect(new Set(withDeleted)).toEqual(new Set([kept.id, gone.id]));
    const page = expectStatus(await api.call('GET', '/v1/agents?includeDeleted=true', { key: org.key }), 200);
    expect(page.data.find((a: { id: string }) => a.id === gone.id)).toMatchObject({ deleted: true, status: 'FROZEN' });
  });

  it('rejects a malformed list query with 400 VALIDATION_ERROR', async () => {
    // Prepare
    const org = await service.createOrganization();

    // Act
    const responses = [
      await api.call('GET', '/v1/agents?limit=0', { key: org.key }),
      await api.call('GET', '/v1/agents?limit=101', { key: org.key }),
      await api.call('GET', '/v1/agents?cursor=forged', { key: org.key }),
      await api.call('GET', '/v1/agents?includeDeleted=yes', { key: org.key }),
    ];

    // Assess
    for (const response of responses) expectApiError(response, 400, 'VALIDATION_ERROR');
  });

  it('shows an agent with status, balance, policies and its active key metadata, never the raw key or hash', async () => {
    // Prepare
    const org = await service.createOrganization();
    const agent = await api.createFromTemplate(org, 'customer-support', 'Helper');
    await api.fundAgent(org, agent.id, 12.5);
    const hash = createHash('sha256').update(agent.apiKey).digest('hex');

    // Act
    const response = await api.call('GET', `/v1/agents/${agent.id}`, { key: org.key });

    // Assess
    const details = expectStatus(response, 200);
    expect(details).toMatchObject({
      id: agent.id,
      name: 'Helper',
      status: 'ACTIVE',
      balance: '12.50000000',
      currency: 'USD',
      deleted: false,
    });
    expect(details.policies).toEqual([
      expect.objectContaining({ id: agent.policyId, walletId: agent.id, maxTransactionAmount: '100.00' }),
    ]);
    expect(details.apiKey).toMatchObject({
      id: agent.apiKeyId,
      status: 'ACTIVE',
      walletId: agent.id,
      prefix: 'svc_test_',
      last4: agent.apiKey.slice(-4),
    });
    expect(details.apiKey).not.toHaveProperty('key');
    expect(details.apiKey).not.toHaveProperty('hash');
    expect(response.text).not.toContain(agent.apiKey);
    expect(response.text).not.toContain(hash);
  });

  it('records lastUsedAt on the agent key once the key was used', async () => {
    // Prepare
    const org = await service.createOrganization();
    const agent = await api.createAgent(org, { name: 'Idle' });
    const unused = expectStatus(await api.call('GET', `/v1/agents/${agent.id}`, { key: org.key }), 200);
    expect(unused.apiKey.lastUsedAt).toBeNull();
    const before = Date.now();

    // Act
    expectStatus(await api.call('GET', `/v1/wallets/${agent.id}/balance`, { key: agent.apiKey }), 200);

    // Assess
    const used = expectStatus(await api.call('GET', `/v1/agents/${agent.id}`, { key: org.key }), 200);
    expect(typeof used.apiKey.lastUsedAt).toBe('string');
    expect(new Date(used.apiKey.lastUsedAt).getTime()).toBeGreaterThanOrEqual(before - 1000);
  });

  it('lets an agent key read its own agent record and list only itself', async () => {
    // Prepare
    const org = await service.createOrganization();
    const agent = await api.createAgent(org, { name: 'Self' });
    const other = await api.createAgent(org, { name: 'Other' });

    // Act
    const own = await api.call('GET', `/v1/agents/${agent.id}`, { key: agent.apiKey });
    const list = await api.call('GET', '/v1/agents', { key: agent.apiKey });

    // Assess
    expect(expectStatus(own, 200)).toMatchObject({ id: agent.id, balance: ZERO_BALANCE });
    expect(own.text).not.toContain(agent.apiKey);
    expect(expectStatus(list, 200).data.map((a: { id: string }) => a.id)).toEqual([agent.id]);
    expect(list.text).not.toContain(other.id);
  });

  it('answers 404 WALLET_NOT_FOUND on every agent endpoint for the main wallet, a plain wallet and an unknown id', async () => {
    // Prepare
    const org = await service.createOrganization();
    await api.fundMain(org, '100.00');
    const plain = await api.createWallet(org);
    const before = await api.balanceOf(org, org.mainWalletId);

    for (const walletId of [org.mainWalletId, plain, 'wal_doesnotexist000000000000']) {
      // Act
      const responses = [
        await api.call('GET', `/v1/agents/${walletId}`, { key: org.key }),
        await api.adjust(org, walletId, 5),
        await api.call('POST', `/v1/agents/${walletId}/pause`, { key: org.key }),
        await api.call('POST', `/v1/agents/${walletId}/resume`, { key: org.key }),
        await api.call('POST', `/v1/agents/${walletId}/rotate-key`, { key: org.key }),
        await api.call('DELETE', `/v1/agents/${walletId}`, { key: org.key }),
      ];

      // Assess
      for (const response of responses) expectApiError(response, 404, 'WALLET_NOT_FOUND');
    }
    expect(await api.balanceOf(org, org.mainWalletId)).toBe(before);
    const main = expectStatus(await api.call('GET', `/v1/wallets/${org.mainWalletId}`, { key: org.key }), 200);
    expect(main.status).toBe('ACTIVE');
  });

  it("answers another organization's agent as absent (404 WALLET_NOT_FOUND)", async () => {
    // Prepare
    const org = await service.createOrganization();
    const stranger = await service.createOrganization('Stranger');
    const agent = await api.createAgent(org, { name: 'Private' });

    // Act
    const responses = [
      await api.call('GET', `/v1/agents/${agent.id}`, { key: stranger.key }),
      await api.call('POST', `/v1/agents/${agent.id}/pause`, { key: stranger.key }),
      await api.call('DELETE', `/v1/agents/${agent.id}`, { key: stranger.key }),
    ];

    // Assess
    for (const response of responses) expectApiError(response, 404, 'WALLET_NOT_FOUND');
    const list = expectStatus(await api.call('GET', '/v1/agents', { key: stranger.key }), 200);
    expect(list.data).toEqual([]);
  });
});
