import { describe, expect, it } from 'vitest';
import { setupE2e } from '../fixtures/e2e-setup.js';
import { expectApiError, expectStatus } from '../fixtures/payments-client.js';

/** Defects found in review: each test failed before its fix. */
describe('review regressions', () => {
  const { service, ledger, orgA, orgB } = setupE2e({ organizations: { orgA: 'A', orgB: 'B' } });

  it("answers 404 for another organization's wallet as a payments or policies filter", async () => {
    const payer = await ledger.fundedWallet(orgA, '100.00');
    const payee = await ledger.fundedWallet(orgA, undefined, 'Payee');
    await ledger.paid(orgA.key, { from: payer, to: payee, amount: '12.34', description: 'secret invoice' });
    await ledger.createPolicy(orgA.key, { walletId: payer, dailyLimit: '77.00' });

    expectApiError(
      await service.call('GET', `/v1/payments?walletId=${payer}`, { key: orgB.key }),
      404,
      'WALLET_NOT_FOUND',
    );
    expectApiError(
      await service.call('GET', `/v1/policies?walletId=${payer}`, { key: orgB.key }),
      404,
      'WALLET_NOT_FOUND',
    );
  });

  it('lets an agent key reverse only payments its own wallet received', async () => {
    const agent = await ledger.createAgent(orgA, 'Buyer');
    await ledger.fund(orgA.key, agent.walletId, '50.00');
    const vendor = await ledger.fundedWallet(orgA, undefined, 'Vendor');
    const payment = await ledger.paid(agent.key, { from: agent.walletId, to: vendor, amount: '40.00' });

    const reversal = await service.call('POST', `/v1/payments/${payment.id}/reverse`, { key: agent.key, body: {} });

    expectApiError(reversal, 422, 'REVERSAL_NOT_ALLOWED');
    expect(await ledger.balanceOf(orgA.key, vendor)).toBe('40.00000000');
  });

  it('re-evaluates policies on approval: a daily limit lowered meanwhile fails the approval', async () => {
    const payer = await ledger.fundedWallet(orgA, '1000.00');
    const payee = await ledger.fundedWallet(orgA, undefined, 'Payee');
    const policy = await ledger.createPolicy(orgA.key, {
      walletId: payer,
      requireHumanApproval: true,
      dailyLimit: '500.00',
    });
    const requester = await ledger.createKey(orgA, ['payments:write', 'payments:read'], 'Requester');
    const { approvalId } = await ledger.queuedPayment(requester.key, { from: payer, to: payee, amount: '400.00' });
    expectStatus(
      await service.call('PATCH', `/v1/policies/${policy.id}`, { key: orgA.key, body: { dailyLimit: 0 } }),
      200,
    );

    const decided = await service.call('POST', `/v1/approvals/${approvalId}/approve`, { key: orgA.key, body: {} });

    expectStatus(decided, 200);
    expect(decided.body).toMatchObject({ status: 'FAILED', failureCode: 'POLICY_DENIED' });
    expect(await ledger.balanceOf(orgA.key, payee)).toBe('0.00000000');
  });

  it('applies a monthly limit added after the payment was queued, even with no spend counted yet', async () => {
    const payer = await ledger.fundedWallet(orgA, '1000.00');
    const payee = await ledger.fundedWallet(orgA, undefined, 'Payee');
    await ledger.createPolicy(orgA.key, { walletId: payer, requireHumanApproval: true });
    const requester = await ledger.createKey(orgA, ['payments:write', 'payments:read'], 'Requester');
    const { approvalId } = await ledger.queuedPayment(requester.key, { from: payer, to: payee, amount: '900.00' });
    await ledger.createPolicy(orgA.key, { walletId: payer, monthlyLimit: '50.00', name: 'Cap' });

    const decided = await service.call('POST', `/v1/approvals/${approvalId}/approve`, { key: orgA.key, body: {} });

    expect(decided.body).toMatchObject({ status: 'FAILED', failureCode: 'POLICY_DENIED' });
    expect(await ledger.balanceOf(orgA.key, payer)).toBe('1000.00000000');
  });

  it('applies recipient rules written as merchant:<domain>', async () => {
    const merchantWallet = await ledger.fundedWallet(orgB, undefined, 'Shop');
    const profile = await service.call('PUT', '/v1/merchant-profile', {
      key: orgB.key,
      body: { domain: 'evil.example.com', displayName: 'Evil', walletId: merchantWallet, closedLoop: true },
    });
    expectStatus(profile, 200);
    const blocked = await ledger.fundedWallet(orgA, '100.00');
    await ledger.createPolicy(orgA.key, { walletId: blocked, blockedRecipients: ['merchant:evil.example.com'] });
    const allowed = await ledger.fundedWallet(orgA, '100.00');
    await ledger.createPolicy(orgA.key, { walletId: allowed, allowedRecipients: ['merchant:evil.example.com'] });

    const denied = await ledger.pay(orgA.key, { from: blocked, to: 'merchant:evil.example.com', amount: '5.00' });
    expect(expectApiError(denied, 403, 'POLICY_DENIED').details).toMatchObject({ rule: 'blockedRecipients' });
    expectStatus(await ledger.pay(orgA.key, { from: allowed, to: 'merchant:evil.example.com', amount: '5.00' }), 200);
  });

  it("never replays one agent's idempotent payment to another agent's key", async () => {
    const first = await ledger.createAgent(orgA, 'First');
    const second = await ledger.createAgent(orgA, 'Second');
    await ledger.fund(orgA.key, first.walletId, '50.00');
    const vendor = await ledger.fundedWallet(orgA, undefined, 'Vendor');
    const body = { from: first.walletId, to: vendor, amount: '1.00', idempotencyKey: 'order-1' };
    await ledger.paid(first.key, body);

    expectApiError(await ledger.pay(second.key, body), 409, 'IDEMPOTENCY_KEY_REUSE');
  });

  it('validates batch item idempotency keys like the top-level one', async () => {
    const payer = await ledger.fundedWallet(orgA, '100.00');
    const payee = await ledger.fundedWallet(orgA, undefined, 'Payee');

    const response = await service.call('POST', '/v1/payments/batch', {
      key: orgA.key,
      body: { payments: [{ from: payer, to: payee, amount: '1.00', idempotencyKey: 'has space' }] },
    });

    expect(response.status).toBe(207);
    expect(response.body.error.details.results[0].error.code).toBe('VALIDATION_ERROR');
    expect(await ledger.balanceOf(orgA.key, payee)).toBe('0.00000000');
  });

  it('answers 4xx, never 500, for oversized ids in paths, queries and bodies', async () => {
    const big = 'x'.repeat(2100);
    const calls: [string, string, unknown?][] = [
      ['GET', `/v1/wallets/${big}`],
      ['GET', `/v1/payments/${big}`],
      ['GET', `/v1/approvals/${big}`],
      ['GET', `/v1/policies/${big}`],
      ['DELETE', `/v1/api-keys/${big}`],
      ['GET', `/v1/payments?walletId=${big}`],
      ['GET', `/v1/policies?walletId=${big}`],
      ['POST', '/v1/policies', { walletId: big, name: 'p', maxTransactionAmount: '1', requireHumanApproval: false }],
    ];
    for (const [method, path, body] of calls) {
      const response = await service.call(method, path, { key: orgA.key, ...(body ? { body } : {}) });
      expect(response.status, `${method} ${path.slice(0, 40)}: ${response.text}`).toBeGreaterThanOrEqual(400);
      expect(response.status, `${method} ${path.slice(0, 40)}: ${response.text}`).toBeLessThan(500);
    }
  });
});
