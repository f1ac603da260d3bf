import { describe, expect, it } from 'vitest';
import { setupE2e } from '../fixtures/e2e-setup.js';
import { expectApiError, expectStatus, type AgentOrganization } from '../fixtures/agents-client.js';

describe('agents: budget adjustment', () => {
  const { service, agents: api } = setupE2e();

  async function orgWithAgent(mainFunds = '100.00') {
    const org = await service.createOrganization();
    if (mainFunds !== '0') await api.fundMain(org, mainFunds);
    const agent = await api.createAgent(org, { name: 'Budgeted' });
    return { org, agent };
  }

  const expectBalances = async (org: AgentOrganization, agentId: string, agentBalance: string, mainBalance: string) => {
    expect(await api.balanceOf(org, agentId)).toBe(agentBalance);
    expect(await api.balanceOf(org, org.mainWalletId)).toBe(mainBalance);
  };

  it('credits the agent from the main wallet and answers {id, adjustment, newBalance, currency}', async () => {
    // Prepare
    const { org, agent } = await orgWithAgent();

    // Act
    const response = await api.adjust(org, agent.id, 12.34);

    // Assess
    const body = expectStatus(response, 200);
    expect(body).toMatchObject({ id: agent.id, adjustment: 12.34, newBalance: '12.34000000', currency: 'USD' });
    expect(typeof body.adjustment).toBe('number');
    expect(Object.keys(body).sort()).toEqual(['adjustment', 'currency', 'id', 'newBalance', 'transactionId']);
    await expectBalances(org, agent.id, '12.34000000', '87.66000000');
    await api.expectLedgerBalanced();
  });

  it('accepts the amount as a decimal string and answers the adjustment as a number', async () => {
    // Prepare
    const { org, agent } = await orgWithAgent();

    // Act
    const response = await api.adjust(org, agent.id, '7.50');

    // Assess
    expect(expectStatus(response, 200)).toMatchObject({ adjustment: 7.5, newBalance: '7.50000000' });
  });

  it('returns funds to the main wallet on a negative amount', async () => {
    // Prepare
    const { org, agent } = await orgWithAgent();
    expectStatus(await api.adjust(org, agent.id, 40), 200);

    // Act
    const response = await api.adjust(org, agent.id, -15.25);

    // Assess
    expect(expectStatus(response, 200)).toMatchObject({
      id: agent.id,
      adjustment: -15.25,
      newBalance: '24.75000000',
      currency: 'USD',
    });
    await expectBalances(org, agent.id, '24.75000000', '75.25000000');
    await api.expectLedgerBalanced();
  });

  it('answers 402 INSUFFICIENT_FUNDS when the main wallet lacks the credit, moving nothing', async () => {
    // Prepare
    const { org, agent } = await orgWithAgent('10.00');

    // Act
    const response = await api.adjust(org, agent.id, 10.01);

    // Assess
    expectApiError(response, 402, 'INSUFFICIENT_FUNDS');
    await expectBalances(org, agent.id, '0.00000000', '10.00000000');
  });

  it('answers 402 INSUFFICIENT_FUNDS when the agent lacks the debit, moving nothing', async () => {
    // Prepare
    const { org, agent } = await orgWithAgent();
    expectStatus(await api.adjust(org, agent.id, 5), 200);

    // Act
    const response = await api.adjust(org, agent.id, -5.01);

    // Assess
    expectApiError(response, 402, 'INSUFFICIENT_FUNDS');
    await expectBalances(org, agent.id, '5.00000000', '95.00000000');
    await api.expectLedgerBalanced();
  });

  it('lets the agent be emptied exactly with a negative adjustment', async () => {
    // Prepare
    const { org, agent } = await orgWithAgent();
    expectStatus(await api.adjust(org, agent.id, 33.33), 200);

    // Act
    const response = await api.adjust(org, agent.id, -33.33);

    // Assess
    expect(expectStatus(response, 200).newBalance).toBe('0.00000000');
    await expectBalances(org, agent.id, '0.00000000', '100.00000000');
  });

  it.each([
    ['zero', 0],
    ['a zero string', '0.00'],
    ['a negative zero string', '-0.00'],
    ['below the negative maximum', -1000000000.01],
    ['three decimals', 1.005],
    ['a malformed string', 'ten'],
    ['above the maximum', '1000000000.01'],
  ])('rejects %s with 400 INVALID_AMOUNT', async (_label, amount) => {
    // Prepare
    const { org, agent } = await orgWithAgent();

    // Act
    const response = await api.adjust(org, agent.id, amount);

    // Assess
    expectApiError(response, 400, 'INVALID_AMOUNT');
    await expectBalances(org, agent.id, '0.00000000', '100.00000000');
  });

  it('rejects a missing amount or an unknown field with 400 VALIDATION_ERROR', async () => {
    // Prepare
    const { org, agent } = await orgWithAgent();

    // Act
    const missing = await api.call('POST', `/v1/agents/${agent.id}/adjust-budget`, { key: org.key, body: {} });
    const extra = await api.adjust(org, agent.id, 5, { currency: 'EUR' });

    // Assess
    expectApiError(missing, 400, 'VALIDATION_ERROR');
    expectApiError(extra, 400, 'VALIDATION_ERROR');
  });

  it('replays the first answer for the same idempotency key and amount, moving money once', async () => {
    // Prepare
    const { org, agent } = await orgWithAgent();
    const first = await api.adjust(org, agent.id, 10, { idempotencyKey: 'budget-1' });

    // Act
    const again = await api.adjust(org, agent.id, '10.00', { idempotencyKey: 'budget-1' });
    const viaHeader = await api.call('POST', `/v1/agents/${agent.id}/adjust-budget`, {
      key: org.key,
      body: { amount: 10 },
      headers: { 'idempotency-key': 'budget-1' },
    });

    // Assess
    expectStatus(first, 200);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(viaHeader.body).toEqual(first.body);
    await expectBalances(org, agent.id, '10.00000000', '90.00000000');
  });

  it('answers 409 IDEMPOTENCY_KEY_REUSE for the same key with another amount', async () => {
    // Prepare
    const { org, agent } = await orgWithAgent();
    expectStatus(await api.adjust(org, agent.id, 10, { idempotencyKey: 'budget-2' }), 200);

    // Act
    const otherAmount = await api.adjust(org, agent.id, 11, { idempotencyKey: 'budget-2' });
    const otherSign = await api.adjust(org, agent.id, -10, { idempotencyKey: 'budget-2' });

    // Assess
    expectApiError(otherAmount, 409, 'IDEMPOTENCY_KEY_REUSE');
    expectApiError(otherSign, 409, 'IDEMPOTENCY_KEY_REUSE');
    await expectBalances(org, agent.id, '10.00000000', '90.00000000');
  });

  it('answers 409 IDEMPOTENCY_KEY_REUSE for a key first used by a payment of the organization', async () => {
    // Prepare
    const { org, agent } = await orgWithAgent();
    const payee = await api.createWallet(org);
    expectStatus(await api.pay(org.key, org.mainWalletId, payee, '10.00', { idempotencyKey: 'shared-key' }), 200);

    // Act
    const response = await api.adjust(org, agent.id, 10, { idempotencyKey: 'shared-key' });

    // Assess
    expectApiError(response, 409, 'IDEMPOTENCY_KEY_REUSE');
    await expectBalances(org, agent.id, '0.00000000', '90.00000000');
  });

  it('posts once for 10 concurrent adjustments with one idempotency key', async () => {
    // Prepare
    const { org, agent } = await orgWithAgent();

    // Act
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => api.adjust(org, agent.id, 3, { idempotencyKey: 'budget-burst' })),
    );

    // Assess
    const succeeded = responses.filter((r) => r.status === 200);
    expect(succeeded.length).toBeGreaterThanOrEqual(1);
    expect(new Set(succeeded.map((r) => r.text)).size).toBe(1);
    for (const response of responses.filter((r) => r.status !== 200)) expect(response.status, response.text).toBe(409);
    await expectBalances(org, agent.id, '3.00000000', '97.00000000');
    await api.expectLedgerBalanced();
  });

  it('keeps the ledger exact under 20 concurrent credits and debits', async () => {
    // Prepare
    const { org, agent } = await orgWithAgent('100.00');
    expectStatus(await api.adjust(org, agent.id, 50), 200);

    // Act
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => api.adjust(org, agent.id, i % 2 === 0 ? 1.25 : -1)),
    );

    // Assess
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
    await expectBalances(org, agent.id, '52.50000000', '47.50000000');
    await api.expectLedgerBalanced();
  });

  it('refuses a budget change on a paused agent with 403 WALLET_FROZEN (both wallets must be ACTIVE)', async () => {
    // Prepare
    const { org, agent } = await orgWithAgent();
    expectStatus(await api.adjust(org, agent.id, 20), 200);
    expectStatus(await api.call('POST', `/v1/agents/${agent.id}/pause`, { key: org.key }), 200);

    // Act
    const credit = await api.adjust(org, agent.id, 5);
    const debit = await api.adjust(org, agent.id, -5);

    // Assess
    expectApiError(credit, 403, 'WALLET_FROZEN');
    expectApiError(debit, 403, 'WALLET_FROZEN');
    await expectBalances(org, agent.id, '20.00000000', '80.00000000');
  });

  it('refuses the agent key itself (403 PERMISSION_DENIED)', async () => {
    // Prepare
    const { org, agent } = await orgWithAgent();

    // Act
    const response = await api.call('POST', `/v1/agents/${agent.id}/adjust-budget`, {
      key: agent.apiKey,
      body: { amount: 50 },
    });

    // Assess
    expectApiError(response, 403, 'PERMISSION_DENIED');
    await expectBalances(org, agent.id, '0.00000000', '100.00000000');
  });
});
