import { describe, expect, it } from 'vitest';
import { setupE2e } from '../fixtures/e2e-setup.js';
import { expectApiError, expectStatus } from '../fixtures/agents-client.js';

describe('agents: payments held for human approval', () => {
  const { service, agents: api } = setupE2e();

  /** A procurement agent (requireHumanApproval) funded through adjust-budget, with a queued payment of 40.00. */
  async function queuedProcurementPayment() {
    const org = await service.createOrganization();
    const agent = await api.createFromTemplate(org, 'procurement');
    await api.fundAgent(org, agent.id, 100);
    const vendor = await api.createWallet(org, 'Vendor');
    const response = await api.pay(agent.apiKey, agent.id, vendor, '40.00', { description: 'Printer paper' });
    const error = expectApiError(response, 202, 'APPROVAL_REQUIRED');
    expect(error.details?.approvalId).toMatch(/^apr_/);
    return {
      org,
      agent,
      vendor,
      approvalId: error.details!.approvalId as string,
      transactionId: error.details!.transactionId as string,
    };
  }

  it('queues a procurement agent payment (202 APPROVAL_REQUIRED) without moving money', async () => {
    // Act
    const { org, agent, vendor, approvalId } = await queuedProcurementPayment();

    // Assess
    const approval = expectStatus(await api.call('GET', `/v1/approvals/${approvalId}`, { key: agent.apiKey }), 200);
    expect(approval).toMatchObject({
      id: approvalId,
      status: 'PENDING',
      walletId: agent.id,
      payment: { from: agent.id, to: vendor, amount: '40.00' },
    });
    expect(await api.balanceOf(org, agent.id)).toBe('100.00000000');
    expect(await api.balanceOf(org, vendor)).toBe('0.00000000');
  });

  it('posts the queued payment once an organization admin approves it: status POSTED, balances moved', async () => {
    // Prepare
    const { org, agent, vendor, approvalId, transactionId } = await queuedProcurementPayment();

    // Act
    const response = await api.call('POST', `/v1/approvals/${approvalId}/approve`, {
      key: org.key,
      body: { note: 'ok' },
    });

    // Assess
    expect(expectStatus(response, 200)).toMatchObject({ id: approvalId, status: 'APPROVED' });
    const approval = expectStatus(await api.call('GET', `/v1/approvals/${approvalId}`, { key: org.key }), 200);
    expect(approval.status).toBe('APPROVED');
    const paymentId = approval.transactionId ?? transactionId;
    const payment = expectStatus(await api.call('GET', `/v1/payments/${paymentId}`, { key: agent.apiKey }), 200);
    expect(payment).toMatchObject({ from: agent.id, to: vendor, amount: '40.00', status: 'POSTED' });
    expect(await api.balanceOf(org, agent.id)).toBe('60.00000000');
    expect(await api.balanceOf(org, vendor)).toBe('40.00000000');
    await api.expectLedgerBalanced();
  });

  it('never lets an agent key decide an approval (403 PERMISSION_DENIED)', async () => {
    // Prepare
    const { org, agent, approvalId } = await queuedProcurementPayment();

    // Act
    const approve = await api.call('POST', `/v1/approvals/${approvalId}/approve`, { key: agent.apiKey });
    const reject = await api.call('POST', `/v1/approvals/${approvalId}/reject`, { key: agent.apiKey });

    // Assess
    expectApiError(approve, 403, 'PERMISSION_DENIED');
    expectApiError(reject, 403, 'PERMISSION_DENIED');
    expect(expectStatus(await api.call('GET', `/v1/approvals/${approvalId}`, { key: org.key }), 200).status).toBe(
      'PENDING',
    );
  });

  it("answers another agent's approval as absent to an agent key", async () => {
    // Prepare
    const { org, approvalId } = await queuedProcurementPayment();
    const other = await api.createAgent(org, { name: 'Nosy' });

    // Act
    const response = await api.call('GET', `/v1/approvals/${approvalId}`, { key: other.apiKey });

    // Assess
    expectApiError(response, 404, 'APPROVAL_NOT_FOUND');
  });

  it('fails the approval of a payment from a paused agent with WALLET_FROZEN, moving nothing', async () => {
    // Prepare
    const { org, agent, vendor, approvalId, transactionId } = await queuedProcurementPayment();
    expectStatus(await api.call('POST', `/v1/agents/${agent.id}/pause`, { key: org.key }), 200);

    // Act
    const response = await api.call('POST', `/v1/approvals/${approvalId}/approve`, { key: org.key });

    // Assess
    expect(response.status, response.text).toBeLessThan(500);
    const approval = expectStatus(await api.call('GET', `/v1/approvals/${approvalId}`, { key: org.key }), 200);
    expect(approval).toMatchObject({ status: 'FAILED', failureCode: 'WALLET_FROZEN' });
    const payment = expectStatus(await api.call('GET', `/v1/payments/${transactionId}`, { key: org.key }), 200);
    expect(payment.status).not.toBe('POSTED');
    expect(await api.balanceOf(org, agent.id)).toBe('100.00000000');
    expect(await api.balanceOf(org, vendor)).toBe('0.00000000');
    await api.expectLedgerBalanced();
  });

  it('fails the approval with INSUFFICIENT_FUNDS when the budget was taken back meanwhile', async () => {
    // Prepare
    const { org, agent, vendor, approvalId } = await queuedProcurementPayment();
    expectStatus(await api.adjust(org, agent.id, -70), 200);

    // Act
    await api.call('POST', `/v1/approvals/${approvalId}/approve`, { key: org.key });

    // Assess
    const approval = expectStatus(await api.call('GET', `/v1/approvals/${approvalId}`, { key: org.key }), 200);
    expect(approval).toMatchObject({ status: 'FAILED', failureCode: 'INSUFFICIENT_FUNDS' });
    expect(await api.balanceOf(org, agent.id)).toBe('30.00000000');
    expect(await api.balanceOf(org, vendor)).toBe('0.00000000');
    await api.expectLedgerBalanced();
  });

  it('answers a second decision with 409 INVALID_STATE', async () => {
    // Prepare
    const { org, approvalId } = await queuedProcurementPayment();
    expectStatus(
      await api.call('POST', `/v1/approvals/${approvalId}/reject`, { key: org.key, body: { reason: 'not needed' } }),
      200,
    );

    // Act
    const approve = await api.call('POST', `/v1/approvals/${approvalId}/approve`, { key: org.key });

    // Assess
    expectApiError(approve, 409, 'INVALID_STATE');
    expect(expectStatus(await api.call('GET', `/v1/approvals/${approvalId}`, { key: org.key }), 200).status).toBe(
      'REJECTED',
    );
  });

  it('fails the approval of a payment from a deleted agent with WALLET_FROZEN; the swept funds stay in the main wallet', async () => {
    // Prepare
    const { org, agent, vendor, approvalId } = await queuedProcurementPayment();
    expect(expectStatus(await api.call('DELETE', `/v1/agents/${agent.id}`, { key: org.key }), 200).sweptAmount).toBe(
      '100.00000000',
    );

    // Act
    const response = await api.call('POST', `/v1/approvals/${approvalId}/approve`, { key: org.key });

    // Assess
    expect(response.status, response.text).toBeLessThan(500);
    const approval = expectStatus(await api.call('GET', `/v1/approvals/${approvalId}`, { key: org.key }), 200);
    expect(approval).toMatchObject({ status: 'FAILED', failureCode: 'WALLET_FROZEN' });
    expect(await api.balanceOf(org, vendor)).toBe('0.00000000');
    expect(await api.balanceOf(org, org.mainWalletId)).toBe('200.00000000');
    await api.expectLedgerBalanced();
  });
});
