import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  agentsApi,
  expectApiError,
  expectStatus,
  type AgentOrganization,
  type AgentsApi,
  type CreatedAgent,
} from '../fixtures/agents-client.js';
import { startTestService, type TestService } from '../fixtures/local-service.js';

describe('agents: wallet-scoped keys', () => {
  let service: TestService;
  let api: AgentsApi;
  let org: AgentOrganization;
  let agentA: CreatedAgent;
  let agentB: CreatedAgent;
  let paymentOfB: string;
  beforeAll(async () => {
    service = await startTestService();
    api = agentsApi(service);
    org = await service.createOrganization('Scope Org');
    agentA = await api.createAgent(org, { name: 'Agent A' });
    agentB = await api.createAgent(org, {
      name: 'Agent B',
      policies: [{ name: 'B policy', maxTransactionAmount: '100.00', requireHumanApproval: false }],
    });
    await api.fundAgent(org, agentA.id, 50);
    await api.fundAgent(org, agentB.id, 50);
    paymentOfB = expectStatus(await api.pay(agentB.apiKey, agentB.id, org.mainWalletId, '2.00'), 200).id;
  });
  afterAll(() => service.close());

  it("answers agent B's wallet, balance, statement and agent record as absent to agent A's key (404 WALLET_NOT_FOUND)", async () => {
    // Act
    const responses = [
      await api.call('GET', `/v1/wallets/${agentB.id}`, { key: agentA.apiKey }),
      await api.call('GET', `/v1/wallets/${agentB.id}/balance`, { key: agentA.apiKey }),
      await api.call('GET', `/v1/wallets/${agentB.id}/transactions`, { key: agentA.apiKey }),
      await api.call('GET', `/v1/agents/${agentB.id}`, { key: agentA.apiKey }),
      await api.call('GET', `/v1/wallets/${org.mainWalletId}`, { key: agentA.apiKey }),
    ];

    // Assess
    for (const response of responses) expectApiError(response, 404, 'WALLET_NOT_FOUND');
  });

  it("answers agent B's payment as absent to agent A's key (404 TRANSACTION_NOT_FOUND) and leaves it out of A's list", async () => {
    // Act
    const single = await api.call('GET', `/v1/payments/${paymentOfB}`, { key: agentA.apiKey });
    const list = await api.call('GET', '/v1/payments?limit=100', { key: agentA.apiKey });
    const filtered = await api.call('GET', `/v1/payments?walletId=${agentB.id}`, { key: agentA.apiKey });

    // Assess
    expectApiError(single, 404, 'TRANSACTION_NOT_FOUND');
    expect(expectStatus(list, 200).data.map((p: { id: string }) => p.id)).not.toContain(paymentOfB);
    expectApiError(filtered, 404, 'WALLET_NOT_FOUND');
    expect(expectStatus(await api.call('GET', `/v1/payments/${paymentOfB}`, { key: agentB.apiKey }), 200).id).toBe(
      paymentOfB,
    );
  });

  it("refuses a payment from agent B's wallet with agent A's key (404 WALLET_NOT_FOUND), moving nothing", async () => {
    // Act
    const response = await api.pay(agentA.apiKey, agentB.id, agentA.id, '1.00');
    const fromMain = await api.pay(agentA.apiKey, org.mainWalletId, agentA.id, '1.00');

    // Assess
    expectApiError(response, 404, 'WALLET_NOT_FOUND');
    expectApiError(fromMain, 404, 'WALLET_NOT_FOUND');
    expect(await api.balanceOf(org, agentB.id)).toBe('48.00000000');
  });

  it('lets an agent key pay to any wallet of the environment, also of another organization', async () => {
    // Prepare
    const stranger = await service.createOrganization('Payee Org');
    const before = await api.balanceOf(org, agentB.id);

    // Act
    const toSibling = await api.pay(agentA.apiKey, agentA.id, agentB.id, '3.00');
    const toOtherOrg = await api.pay(agentA.apiKey, agentA.id, stranger.mainWalletId, '4.00');

    // Assess
    expect(expectStatus(toSibling, 200)).toMatchObject({
      from: agentA.id,
      to: agentB.id,
      amount: '3.00',
      status: 'POSTED',
    });
    expect(expectStatus(toOtherOrg, 200)).toMatchObject({ to: stranger.mainWalletId, status: 'POSTED' });
    expect(Number(await api.balanceOf(org, agentB.id)) - Number(before)).toBe(3);
    expect(await api.balanceOf(stranger, stranger.mainWalletId)).toBe('4.00000000');
    await api.expectLedgerBalanced();
  });

  it('refuses agent keys to create agents or wallets, or to fund other wallets', async () => {
    // Act
    const createAgent = await api.call('POST', '/v1/agents', { key: agentA.apiKey, body: { name: 'Spawn' } });
    const createWallet = await api.call('POST', '/v1/wallets', { key: agentA.apiKey, body: { name: 'Stash' } });
    const fundOther = await api.call('POST', `/v1/wallets/${agentB.id}/fund`, {
      key: agentA.apiKey,
      body: { amount: '5.00' },
    });

    // Assess
    expectApiError(createAgent, 403, 'PERMISSION_DENIED');
    expectApiError(createWallet, 403, 'PERMISSION_DENIED');
    expectApiError(fundOther, 404, 'WALLET_NOT_FOUND');
  });

  it('refuses agent keys to create, change or delete policies (403 PERMISSION_DENIED), even on their own wallet', async () => {
    // Prepare
    const ownPolicy = expectStatus(await api.call('GET', '/v1/policies', { key: agentB.apiKey }), 200).data[0];

    // Act
    const create = await api.call('POST', '/v1/policies', {
      key: agentB.apiKey,
      body: { walletId: agentB.id, name: 'Loose', maxTransactionAmount: '100000.00', requireHumanApproval: false },
    });
    const patch = await api.call('PATCH', `/v1/policies/${ownPolicy.id}`, {
      key: agentB.apiKey,
      body: { maxTransactionAmount: '100000.00' },
    });
    const remove = await api.call('DELETE', `/v1/policies/${ownPolicy.id}`, { key: agentB.apiKey });

    // Assess
    expectApiError(create, 403, 'PERMISSION_DENIED');
    expectApiError(patch, 403, 'PERMISSION_DENIED');
    expectApiError(remove, 403, 'PERMISSION_DENIED');
    const after = expectStatus(await api.call('GET', `/v1/policies/${ownPolicy.id}`, { key: org.key }), 200);
    expect(after.maxTransactionAmount).toBe('100.00');
  });

  it('lets an agent key read only its own policies', async () => {
    // Prepare
    const policyOfA = expectStatus(
      await api.call('POST', '/v1/policies', {
        key: org.key,
        body: { walletId: agentA.id, name: 'A policy', maxTransactionAmount: '40.00', requireHumanApproval: false },
      }),
      201,
    );
    const policyOfB = expectStatus(await api.call('GET', '/v1/policies', { key: agentB.apiKey }), 200).data[0];

    // Act
    const own = await api.call('GET', '/v1/policies', { key: agentA.apiKey });
    const single = await api.call('GET', `/v1/policies/${policyOfA.id}`, { key: agentA.apiKey });
    const foreign = await api.call('GET', `/v1/policies/${policyOfB.id}`, { key: agentA.apiKey });
    const foreignFilter = await api.call('GET', `/v1/policies?walletId=${agentB.id}`, { key: agentA.apiKey });

    // Assess
    const listed = expectStatus(own, 200).data as Array<{ id: string; walletId: string }>;
    expect(listed.map((p) => p.id)).toEqual([policyOfA.id]);
    expect(expectStatus(single, 200).id).toBe(policyOfA.id);
    expectApiError(foreign, 404, 'POLICY_NOT_FOUND');
    expectApiError(foreignFilter, 404, 'WALLET_NOT_FOUND');
  });

  it('refuses agent keys to manage API keys (403 PERMISSION_DENIED)', async () => {
    // Act
    const list = await api.call('GET', '/v1/api-keys', { key: agentA.apiKey });
    const create = await api.call('POST', '/v1/api-keys', {
      key: agentA.apiKey,
      body: { name: 'escalate', permissions: ['wallets:read'] },
    });
    const revoke = await api.call('DELETE', `/v1/api-keys/${agentB.apiKeyId}`, { key: agentA.apiKey });

    // Assess
    for (const response of [list, create, revoke]) expectApiError(response, 403, 'PERMISSION_DENIED');
    expectStatus(await api.call('GET', `/v1/wallets/${agentB.id}/balance`, { key: agentB.apiKey }), 200);
  });

  it('lists only its own wallet for an agent key', async () => {
    // Act
    const response = await api.call('GET', '/v1/wallets?limit=100', { key: agentA.apiKey });

    // Assess
    expect(expectStatus(response, 200).data.map((w: { id: string }) => w.id)).toEqual([agentA.id]);
  });
});
