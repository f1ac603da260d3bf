import { describe, expect, it } from 'vitest';
import { setupE2e } from '../fixtures/e2e-setup.js';
import { expectApiError, expectStatus } from '../fixtures/agents-client.js';

describe('agents: pause, resume and delete', () => {
  const { service, agents: api } = setupE2e();

  async function fundedAgent(amount = 50) {
    const org = await service.createOrganization();
    const agent = await api.createAgent(org, { name: 'Worker' });
    await api.fundAgent(org, agent.id, amount);
    const payee = await api.createWallet(org, 'Vendor');
    return { org, agent, payee };
  }

  it('pauses an agent: {id, status FROZEN}; payments from and to it answer 403 WALLET_FROZEN; its key still reads', async () => {
    // Prepare
    const { org, agent, payee } = await fundedAgent();
    await api.fundMain(org, '10.00');

    // Act
    const paused = await api.call('POST', `/v1/agents/${agent.id}/pause`, { key: org.key });

    // Assess
    expect(expectStatus(paused, 200)).toEqual({ id: agent.id, status: 'FROZEN' });
    expectApiError(await api.pay(agent.apiKey, agent.id, payee, '1.00'), 403, 'WALLET_FROZEN');
    expectApiError(await api.pay(org.key, agent.id, payee, '1.00'), 403, 'WALLET_FROZEN');
    expectApiError(await api.pay(org.key, org.mainWalletId, agent.id, '1.00'), 403, 'WALLET_FROZEN');
    const balance = await api.call('GET', `/v1/wallets/${agent.id}/balance`, { key: agent.apiKey });
    expect(expectStatus(balance, 200).balance).toBe('50.00000000');
    expect(expectStatus(await api.call('GET', `/v1/agents/${agent.id}`, { key: org.key }), 200).status).toBe('FROZEN');
    expect(expectStatus(await api.call('GET', `/v1/wallets/${agent.id}`, { key: agent.apiKey }), 200).status).toBe(
      'FROZEN',
    );
    expect(await api.balanceOf(org, payee)).toBe('0.00000000');
  });

  it('resumes a paused agent: {id, status ACTIVE} and payments work again', async () => {
    // Prepare
    const { org, agent, payee } = await fundedAgent();
    expectStatus(await api.call('POST', `/v1/agents/${agent.id}/pause`, { key: org.key }), 200);

    // Act
    const resumed = await api.call('POST', `/v1/agents/${agent.id}/resume`, { key: org.key });

    // Assess
    expect(expectStatus(resumed, 200)).toEqual({ id: agent.id, status: 'ACTIVE' });
    expect(expectStatus(await api.pay(agent.apiKey, agent.id, payee, '7.00'), 200).status).toBe('POSTED');
    expect(await api.balanceOf(org, agent.id)).toBe('43.00000000');
    expect(await api.balanceOf(org, payee)).toBe('7.00000000');
    await api.expectLedgerBalanced();
  });

  it('answers pause of a paused agent and resume of an active one with the current status', async () => {
    // Prepare
    const { org, agent } = await fundedAgent();

    // Act
    const resumeActive = await api.call('POST', `/v1/agents/${agent.id}/resume`, { key: org.key });
    await api.call('POST', `/v1/agents/${agent.id}/pause`, { key: org.key });
    const pauseAgain = await api.call('POST', `/v1/agents/${agent.id}/pause`, { key: org.key });

    // Assess
    expect(expectStatus(resumeActive, 200)).toEqual({ id: agent.id, status: 'ACTIVE' });
    expect(expectStatus(pauseAgain, 200)).toEqual({ id: agent.id, status: 'FROZEN' });
  });

  it('refuses pause, resume and delete with the agent key (403 PERMISSION_DENIED)', async () => {
    // Prepare
    const { agent } = await fundedAgent();

    // Act
    const responses = [
      await api.call('POST', `/v1/agents/${agent.id}/pause`, { key: agent.apiKey }),
      await api.call('POST', `/v1/agents/${agent.id}/resume`, { key: agent.apiKey }),
      await api.call('POST', `/v1/agents/${agent.id}/rotate-key`, { key: agent.apiKey }),
      await api.call('DELETE', `/v1/agents/${agent.id}`, { key: agent.apiKey }),
    ];

    // Assess
    for (const response of responses) expectApiError(response, 403, 'PERMISSION_DENIED');
  });

  it('deletes an agent holding 12.34: sweeps exactly 12.34 to the main wallet and answers {deleted, sweptAmount}', async () => {
    // Prepare
    const { org, agent } = await fundedAgent(12.34);
    const mainBefore = await api.balanceOf(org, org.mainWalletId);

    // Act
    const response = await api.call('DELETE', `/v1/agents/${agent.id}`, { key: org.key });

    // Assess
    expect(expectStatus(response, 200)).toMatchObject({ deleted: true, sweptAmount: '12.34000000' });
    expect(Number(await api.balanceOf(org, org.mainWalletId)) - Number(mainBefore)).toBeCloseTo(12.34, 8);
    expect(await api.balanceOf(org, org.mainWalletId)).toBe('112.34000000');
    expect(await api.balanceOf(org, agent.id)).toBe('0.00000000');
    await api.expectLedgerBalanced();
  });

  it('revokes the key of a deleted agent (401 API_KEY_REVOKED) and keeps the record, shown as deleted', async () => {
    // Prepare
    const { org, agent } = await fundedAgent(5);

    // Act
    expectStatus(await api.call('DELETE', `/v1/agents/${agent.id}`, { key: org.key }), 200);

    // Assess
    expectApiError(
      await api.call('GET', `/v1/wallets/${agent.id}/balance`, { key: agent.apiKey }),
      401,
      'API_KEY_REVOKED',
    );
    const details = expectStatus(await api.call('GET', `/v1/agents/${agent.id}`, { key: org.key }), 200);
    expect(details).toMatchObject({ id: agent.id, deleted: true, status: 'FROZEN', balance: '0.00000000' });
    expect(typeof details.deletedAt).toBe('string');
    const keys = await api.listApiKeys(org);
    expect(keys.filter((k) => k.walletId === agent.id && k.status === 'ACTIVE')).toEqual([]);
    const list = expectStatus(await api.call('GET', '/v1/agents', { key: org.key }), 200);
    expect(list.data.map((a: { id: string }) => a.id)).not.toContain(agent.id);
    const withDeleted = expectStatus(await api.call('GET', '/v1/agents?includeDeleted=true', { key: org.key }), 200);
    expect(withDeleted.data.map((a: { id: string }) => a.id)).toContain(agent.id);
  });

  it('deletes an agent with a zero balance: sweptAmount "0.00000000"', async () => {
    // Prepare
    const org = await service.createOrganization();
    const agent = await api.createAgent(org, { name: 'Empty' });

    // Act
    const response = await api.call('DELETE', `/v1/agents/${agent.id}`, { key: org.key });

    // Assess
    expect(expectStatus(response, 200)).toMatchObject({ deleted: true, sweptAmount: '0.00000000' });
    expectApiError(await api.call('GET', `/v1/agents/${agent.id}`, { key: agent.apiKey }), 401, 'API_KEY_REVOKED');
  });

  it('answers a second delete with 409 INVALID_STATE and moves nothing more', async () => {
    // Prepare
    const { org, agent } = await fundedAgent(3);
    expectStatus(await api.call('DELETE', `/v1/agents/${agent.id}`, { key: org.key }), 200);
    const mainAfterFirst = await api.balanceOf(org, org.mainWalletId);

    // Act
    const second = await api.call('DELETE', `/v1/agents/${agent.id}`, { key: org.key });

    // Assess
    expectApiError(second, 409, 'INVALID_STATE');
    expect(await api.balanceOf(org, org.mainWalletId)).toBe(mainAfterFirst);
  });

  it('refuses to change a deleted agent: resume, pause and rotate-key 409 INVALID_STATE, budget 403 WALLET_FROZEN', async () => {
    // Prepare
    const { org, agent } = await fundedAgent(3);
    expectStatus(await api.call('DELETE', `/v1/agents/${agent.id}`, { key: org.key }), 200);

    // Act
    const resume = await api.call('POST', `/v1/agents/${agent.id}/resume`, { key: org.key });
    const pause = await api.call('POST', `/v1/agents/${agent.id}/pause`, { key: org.key });
    const rotate = await api.call('POST', `/v1/agents/${agent.id}/rotate-key`, { key: org.key });
    const budget = await api.adjust(org, agent.id, 1);

    // Assess
    expectApiError(resume, 409, 'INVALID_STATE');
    expectApiError(pause, 409, 'INVALID_STATE');
    expectApiError(rotate, 409, 'INVALID_STATE');
    expectApiError(budget, 403, 'WALLET_FROZEN');
    expectApiError(await api.pay(org.key, org.mainWalletId, agent.id, '1.00'), 403, 'WALLET_FROZEN');
    expect(await api.balanceOf(org, agent.id)).toBe('0.00000000');
  });

  it('sweeps the balance of a paused agent on delete', async () => {
    // Prepare
    const { org, agent } = await fundedAgent(8.75);
    expectStatus(await api.call('POST', `/v1/agents/${agent.id}/pause`, { key: org.key }), 200);

    // Act
    const response = await api.call('DELETE', `/v1/agents/${agent.id}`, { key: org.key });

    // Assess
    expect(expectStatus(response, 200)).toMatchObject({ deleted: true, sweptAmount: '8.75000000' });
    expect(await api.balanceOf(org, agent.id)).toBe('0.00000000');
    expect(await api.balanceOf(org, org.mainWalletId)).toBe('108.75000000');
    await api.expectLedgerBalanced();
  });

  it('deletes once under 5 concurrent deletes: one sweep, the rest 409 INVALID_STATE', async () => {
    // Prepare
    const { org, agent } = await fundedAgent(20);

    // Act
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => api.call('DELETE', `/v1/agents/${agent.id}`, { key: org.key })),
    );

    // Assess
    const ok = responses.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    expect(ok[0]!.body.sweptAmount).toBe('20.00000000');
    for (const response of responses.filter((r) => r.status !== 200)) expectApiError(response, 409, 'INVALID_STATE');
    expect(await api.balanceOf(org, org.mainWalletId)).toBe('120.00000000');
    await api.expectLedgerBalanced();
  });

  it('never strands money in a deleted agent: deleting an empty agent while budget credits land sweeps or refuses them', async () => {
    for (let round = 0; round < 5; round++) {
      // Prepare
      const org = await service.createOrganization();
      await api.fundMain(org, '100.00');
      const agent = await api.createAgent(org, { name: `Racing ${round}` });

      // Act
      const [deletion, ...credits] = await Promise.all([
        api.call('DELETE', `/v1/agents/${agent.id}`, { key: org.key }),
        ...Array.from({ length: 4 }, () => api.adjust(org, agent.id, 5)),
      ]);

      // Assess
      const details = expectStatus(await api.call('GET', `/v1/agents/${agent.id}`, { key: org.key }), 200);
      const credited = credits.filter((c) => c.status === 200).length * 5;
      if (details.deleted) {
        expect(
          details.balance,
          `round ${round}: deleted agent still holds money; delete answered ${deletion.text}`,
        ).toBe('0.00000000');
        expect(await api.balanceOf(org, org.mainWalletId)).toBe('100.00000000');
      } else {
        expectApiError(deletion, 409, 'INVALID_STATE');
        expect(Number(details.balance)).toBe(credited);
      }
    }
    await api.expectLedgerBalanced();
  });
});
