import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { setupE2e } from '../fixtures/e2e-setup.js';
import { DEFAULT_AGENT_PERMISSIONS, expectApiError, expectStatus, ZERO_BALANCE } from '../fixtures/agents-client.js';

describe('agents: creation', () => {
  const { agents: api, org } = setupE2e({ organizations: { org: 'Agents Create Org' } });

  it('creates an agent with a wallet id, a raw sandbox key usable at once, its key id and a zero balance', async () => {
    // Act
    const response = await api.call('POST', '/v1/agents', { key: org.key, body: { name: 'Shopper' } });

    // Assess
    const agent = expectStatus(response, 201);
    expect(agent.id).toMatch(/^wal_[A-Za-z0-9]{24,}$/);
    expect(agent.apiKey).toMatch(/^svc_test_[A-Za-z0-9]{38}$/);
    expect(agent.apiKeyId).toMatch(/^key_/);
    expect(agent.balance).toBe(ZERO_BALANCE);
    expect(agent.permissions).toEqual(DEFAULT_AGENT_PERMISSIONS);
    const own = await api.call('GET', `/v1/wallets/${agent.id}`, { key: agent.apiKey });
    expect(expectStatus(own, 200)).toMatchObject({
      id: agent.id,
      walletType: 'AGENT',
      status: 'ACTIVE',
      balance: ZERO_BALANCE,
      agentName: 'Shopper',
    });
  });

  it('grants the default permissions: the agent key reads, writes and pays from its own wallet', async () => {
    // Prepare
    const agent = await api.createAgent(org, { name: 'Default perms' });
    const keys = await api.listApiKeys(org);

    // Act
    const listed = keys.find((k) => k.id === agent.apiKeyId);
    const payment = await api.pay(agent.apiKey, agent.id, org.mainWalletId, '1.00');

    // Assess
    expect(listed).toMatchObject({ walletId: agent.id, status: 'ACTIVE' });
    expect([...listed!.permissions].sort()).toEqual([...DEFAULT_AGENT_PERMISSIONS].sort());
    expectApiError(payment, 402, 'INSUFFICIENT_FUNDS');
  });

  it('grants exactly the requested permissions', async () => {
    // Prepare
    const agent = await api.createAgent(org, { name: 'Reader', permissions: ['wallets:read'] });

    // Act
    const read = await api.call('GET', `/v1/wallets/${agent.id}/balance`, { key: agent.apiKey });
    const payment = await api.pay(agent.apiKey, agent.id, org.mainWalletId, '1.00');
    const payments = await api.call('GET', '/v1/payments', { key: agent.apiKey });

    // Assess
    expect(agent.permissions).toEqual(['wallets:read']);
    expectStatus(read, 200);
    expectApiError(payment, 403, 'PERMISSION_DENIED');
    expectApiError(payments, 403, 'PERMISSION_DENIED');
  });

  it.each([['admin'], ['service:admin'], ['wallets:delete'], ['']])(
    'rejects the permission %j with 400 VALIDATION_ERROR and creates nothing',
    async (permission) => {
      // Prepare
      const before = await api.call('GET', '/v1/agents?limit=100', { key: org.key });

      // Act
      const response = await api.call('POST', '/v1/agents', {
        key: org.key,
        body: { name: 'Greedy', permissions: ['wallets:read', permission] },
      });

      // Assess
      expectApiError(response, 400, 'VALIDATION_ERROR');
      const after = await api.call('GET', '/v1/agents?limit=100', { key: org.key });
      expect(after.body.data).toHaveLength(before.body.data.length);
    },
  );

  it.each([
    ['no name', {}],
    ['an empty name', { name: '' }],
    ['a blank name', { name: '   ' }],
    ['a numeric name', { name: 42 }],
    ['permissions not an array', { name: 'x', permissions: 'wallets:read' }],
    ['an unknown field', { name: 'x', balance: '100.00' }],
  ])('rejects %s with 400 VALIDATION_ERROR', async (_label, body) => {
    // Act
    const response = await api.call('POST', '/v1/agents', { key: org.key, body });

    // Assess
    expectApiError(response, 400, 'VALIDATION_ERROR');
  });

  it('creates the requested policies with the agent in one step', async () => {
    // Prepare
    const policies = [
      { name: 'Per payment', maxTransactionAmount: '25.00', requireHumanApproval: false, dailyLimit: '100.00' },
      {
        name: 'Blocklist',
        maxTransactionAmount: '50.00',
        requireHumanApproval: false,
        blockedRecipients: [org.mainWalletId],
      },
    ];

    // Act
    const agent = await api.createAgent(org, { name: 'With policies', policies });

    // Assess
    const details = expectStatus(await api.call('GET', `/v1/agents/${agent.id}`, { key: org.key }), 200);
    expect(details.policies).toHaveLength(2);
    expect(details.policies).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          walletId: agent.id,
          name: 'Per payment',
          maxTransactionAmount: '25.00',
          dailyLimit: '100.00',
          requireHumanApproval: false,
        }),
        expect.objectContaining({
          walletId: agent.id,
          name: 'Blocklist',
          maxTransactionAmount: '50.00',
          blockedRecipients: [org.mainWalletId],
        }),
      ]),
    );
    const listed = expectStatus(await api.call('GET', `/v1/policies?walletId=${agent.id}`, { key: org.key }), 200);
    expect(listed.data.map((p: { name: string }) => p.name).sort()).toEqual(['Blocklist', 'Per payment']);
  });

  it('enforces a policy created with the agent', async () => {
    // Prepare
    const agent = await api.createAgent(org, {
      name: 'Capped',
      policies: [{ name: 'Cap', maxTransactionAmount: '5.00', requireHumanApproval: false }],
    });
    await api.fundAgent(org, agent.id, 20);

    // Act
    const denied = await api.pay(agent.apiKey, agent.id, org.mainWalletId, '6.00');
    const allowed = await api.pay(agent.apiKey, agent.id, org.mainWalletId, '5.00');

    // Assess
    expect(expectApiError(denied, 403, 'POLICY_DENIED').details?.rule).toBe('maxTransactionAmount');
    expect(expectStatus(allowed, 200).status).toBe('POSTED');
    expect(await api.balanceOf(org, agent.id)).toBe('15.00000000');
    await api.expectLedgerBalanced();
  });

  it('rejects an invalid policy in the request and creates no agent', async () => {
    // Prepare
    const before = await api.call('GET', '/v1/agents?limit=100', { key: org.key });

    // Act
    const missingRule = await api.call('POST', '/v1/agents', {
      key: org.key,
      body: { name: 'Bad', policies: [{ name: 'No max', requireHumanApproval: false }] },
    });
    const badAmount = await api.call('POST', '/v1/agents', {
      key: org.key,
      body: { name: 'Bad', policies: [{ name: 'Max', maxTransactionAmount: '1.234', requireHumanApproval: false }] },
    });

    // Assess
    expectApiError(missingRule, 400, 'VALIDATION_ERROR');
    expect(badAmount.status).toBe(400);
    expect(['INVALID_AMOUNT', 'VALIDATION_ERROR']).toContain(badAmount.body.error.code);
    const after = await api.call('GET', '/v1/agents?limit=100', { key: org.key });
    expect(after.body.data).toHaveLength(before.body.data.length);
  });

  it('stores only a hash of the key: the creation reply is the only place the raw key appears', async () => {
    // Prepare
    const agent = await api.createAgent(org, { name: 'Secretive' });
    const hash = createHash('sha256').update(agent.apiKey).digest('hex');

    // Act
    const details = await api.call('GET', `/v1/agents/${agent.id}`, { key: org.key });
    const list = await api.call('GET', '/v1/agents?limit=100', { key: org.key });
    const keys = await api.call('GET', '/v1/api-keys?limit=100', { key: org.key });

    // Assess
    for (const response of [details, list, keys]) {
      expect(response.status).toBe(200);
      expect(response.text).not.toContain(agent.apiKey);
      expect(response.text).not.toContain(hash);
    }
  });

  it('refuses agent keys: creating agents or wallets needs an organization key (403 PERMISSION_DENIED)', async () => {
    // Prepare
    const agent = await api.createAgent(org, { name: 'Ambitious' });

    // Act
    const responses = [
      await api.call('POST', '/v1/agents', { key: agent.apiKey, body: { name: 'Child' } }),
      await api.call('POST', '/v1/agents/from-template', {
        key: agent.apiKey,
        body: { name: 'Child', templateId: 'research' },
      }),
      await api.call('POST', '/v1/wallets', { key: agent.apiKey, body: { name: 'Side wallet' } }),
    ];

    // Assess
    for (const response of responses) expectApiError(response, 403, 'PERMISSION_DENIED');
  });

  it('refuses a key without wallets:write (403 PERMISSION_DENIED) and a missing key (401 UNAUTHORIZED)', async () => {
    // Prepare
    const reader = expectStatus(
      await api.call('POST', '/v1/api-keys', { key: org.key, body: { name: 'reader', permissions: ['wallets:read'] } }),
      201,
    );

    // Act
    const withReader = await api.call('POST', '/v1/agents', { key: reader.key, body: { name: 'x' } });
    const withoutKey = await api.call('POST', '/v1/agents', { body: { name: 'x' } });

    // Assess
    expectApiError(withReader, 403, 'PERMISSION_DENIED');
    expectApiError(withoutKey, 401, 'UNAUTHORIZED');
  });
});
