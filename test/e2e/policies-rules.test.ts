import { describe, expect, it } from 'vitest';
import { setupE2e } from '../fixtures/e2e-setup.js';
import { expectApiError, expectStatus, type LedgerClient } from '../fixtures/payments-client.js';

describe('policies: how spend rules judge POST /v1/payments', () => {
  const { service, ledger, org } = setupE2e({ organizations: { org: 'Rules Org' } });

  async function governed(rules: Record<string, unknown>, amount = '1000.00') {
    const payer = await ledger.fundedWallet(org, amount);
    const payee = await ledger.fundedWallet(org, undefined, 'Payee');
    const policy = await ledger.createPolicy(org.key, { walletId: payer, ...rules });
    return { payer, payee, policy };
  }

  /** Asserts 403 POLICY_DENIED naming `rule`; returns the details. */
  function expectDenied(response: Awaited<ReturnType<LedgerClient['pay']>>, rule: string) {
    const details = expectApiError(response, 403, 'POLICY_DENIED').details!;
    expect(details.rule).toBe(rule);
    return details;
  }

  describe('deny rules', () => {
    it('denies an amount above maxTransactionAmount and allows the maximum itself', async () => {
      // Prepare
      const { payer, payee } = await governed({ maxTransactionAmount: '50.00' });

      // Act
      const above = await ledger.pay(org.key, { from: payer, to: payee, amount: '50.01' });
      const exact = await ledger.pay(org.key, { from: payer, to: payee, amount: 50 });

      // Assess
      expectDenied(above, 'maxTransactionAmount');
      expectStatus(exact, 200);
      expect(await ledger.balanceOf(org.key, payer)).toBe('950.00000000');
    });

    it('denies every payment under a zero maxTransactionAmount', async () => {
      const { payer, payee } = await governed({ maxTransactionAmount: '0' });
      expectDenied(await ledger.pay(org.key, { from: payer, to: payee, amount: '0.01' }), 'maxTransactionAmount');
      expect(await ledger.balanceOf(org.key, payer)).toBe('1000.00000000');
    });

    it('denies a payment to a blocked recipient and allows others', async () => {
      // Prepare
      const other = await ledger.fundedWallet(org, undefined, 'Other');
      const { payer, payee } = await governed({});
      await ledger.createPolicy(org.key, { walletId: payer, blockedRecipients: [payee] });

      // Act
      const blocked = await ledger.pay(org.key, { from: payer, to: payee, amount: '1.00' });
      const allowed = await ledger.pay(org.key, { from: payer, to: other, amount: '1.00' });

      // Assess
      expectDenied(blocked, 'blockedRecipients');
      expectStatus(allowed, 200);
    });

    it('denies a recipient missing from allowedRecipients and allows a listed one', async () => {
      // Prepare
      const other = await ledger.fundedWallet(org, undefined, 'Other');
      const { payer, payee } = await governed({});
      await ledger.createPolicy(org.key, { walletId: payer, allowedRecipients: [payee] });

      // Act
      const unlisted = await ledger.pay(org.key, { from: payer, to: other, amount: '1.00' });
      const listed = await ledger.pay(org.key, { from: payer, to: payee, amount: '1.00' });

      // Assess
      expectDenied(unlisted, 'allowedRecipients');
      expectStatus(listed, 200);
    });

    it('denies a payment outside allowedHoursUtc and allows one inside', async () => {
      // Prepare: one window that excludes this hour and the next, one that includes both
      const hour = new Date().getUTCHours();
      const closed = await governed({ allowedHoursUtc: { start: (hour + 2) % 24, end: (hour + 3) % 24 } });
      const open = await governed({ allowedHoursUtc: { start: hour, end: (hour + 2) % 24 } });

      // Act
      const outside = await ledger.pay(org.key, { from: closed.payer, to: closed.payee, amount: '1.00' });
      const inside = await ledger.pay(org.key, { from: open.payer, to: open.payee, amount: '1.00' });

      // Assess
      expectDenied(outside, 'allowedHoursUtc');
      expectStatus(inside, 200);
    });

    it('denies the payment that would pass the dailyLimit, naming what remains', async () => {
      // Prepare
      const { payer, payee } = await governed({ dailyLimit: '100.00' });
      await ledger.paid(org.key, { from: payer, to: payee, amount: '60.00' });

      // Act
      const over = await ledger.pay(org.key, { from: payer, to: payee, amount: '40.01' });
      const rest = await ledger.pay(org.key, { from: payer, to: payee, amount: '40.00' });
      const after = await ledger.pay(org.key, { from: payer, to: payee, amount: '0.01' });

      // Assess
      expect(expectDenied(over, 'dailyLimit')).toMatchObject({ remaining: '40.00' });
      expectStatus(rest, 200);
      expect(expectDenied(after, 'dailyLimit')).toMatchObject({ remaining: '0.00' });
      expect(await ledger.balanceOf(org.key, payer)).toBe('900.00000000');
    });

    it.each([['weeklyLimit'], ['monthlyLimit']])('denies the payment that would pass the %s', async (rule) => {
      const { payer, payee } = await governed({ [rule]: '30.00' });
      await ledger.paid(org.key, { from: payer, to: payee, amount: '20.00' });
      expect(expectDenied(await ledger.pay(org.key, { from: payer, to: payee, amount: '20.00' }), rule)).toMatchObject({
        remaining: '10.00',
      });
    });

    it('applies every policy on the wallet: the tightest rule decides', async () => {
      // Prepare
      const { payer, payee } = await governed({ maxTransactionAmount: '500.00' });
      await ledger.createPolicy(org.key, { walletId: payer, maxTransactionAmount: '20.00' });

      // Act
      const response = await ledger.pay(org.key, { from: payer, to: payee, amount: '25.00' });

      // Assess
      expectDenied(response, 'maxTransactionAmount');
    });

    it("does not apply another wallet's policy", async () => {
      const { payee } = await governed({ maxTransactionAmount: '0' });
      const free = await ledger.fundedWallet(org, '10.00', 'Free');
      expectStatus(await ledger.pay(org.key, { from: free, to: payee, amount: '5.00' }), 200);
    });

    it('counts only posted payments against a period limit: denied ones use none of it', async () => {
      // Prepare
      const { payer, payee } = await governed({ maxTransactionAmount: '50.00', dailyLimit: '60.00' });
      expectDenied(await ledger.pay(org.key, { from: payer, to: payee, amount: '55.00' }), 'maxTransactionAmount');

      // Act
      const response = await ledger.pay(org.key, { from: payer, to: payee, amount: '50.00' });

      // Assess
      expectStatus(response, 200);
    });
  });

  describe('approval rules', () => {
    it('answers 202 APPROVAL_REQUIRED under requireHumanApproval: payment QUEUED, nothing moved', async () => {
      // Prepare
      const { payer, payee } = await governed({ requireHumanApproval: true });

      // Act
      const response = await ledger.pay(org.key, { from: payer, to: payee, amount: '10.00' });

      // Assess
      const error = expectApiError(response, 202, 'APPROVAL_REQUIRED');
      expect(error.details).toMatchObject({
        approvalId: expect.stringMatching(/^apr_/),
        transactionId: expect.stringMatching(/^txn_/),
      });
      const payment = await ledger.getPayment(org.key, error.details!.transactionId);
      expect(payment.body).toMatchObject({ status: 'QUEUED', approvalId: error.details!.approvalId, amount: '10.00' });
      expect(await ledger.balanceOf(org.key, payer)).toBe('1000.00000000');
      expect(await ledger.balanceOf(org.key, payee)).toBe('0.00000000');
    });

    it('posts up to the approvalThreshold and holds an amount above it for approval', async () => {
      // Prepare
      const { payer, payee } = await governed({ approvalThreshold: '100.00' });

      // Act
      const atThreshold = await ledger.pay(org.key, { from: payer, to: payee, amount: '100.00' });
      const above = await ledger.pay(org.key, { from: payer, to: payee, amount: '100.01' });

      // Assess
      expectStatus(atThreshold, 200);
      expect(expectApiError(above, 202, 'APPROVAL_REQUIRED').details?.approvalId).toMatch(/^apr_/);
      expect(await ledger.balanceOf(org.key, payer)).toBe('900.00000000');
    });

    it('judges deny rules before approval: a denied payment is not queued', async () => {
      const { payer, payee } = await governed({ requireHumanApproval: true, maxTransactionAmount: '50.00' });
      expectDenied(await ledger.pay(org.key, { from: payer, to: payee, amount: '60.00' }), 'maxTransactionAmount');
      const pending = await service.call('GET', `/v1/approvals?walletId=${payer}`, { key: org.key });
      expect(pending.body.data).toEqual([]);
    });

    it('judges approval before funds: an empty wallet still queues the payment', async () => {
      const { payer, payee } = await governed({ requireHumanApproval: true }, undefined);
      expectApiError(await ledger.pay(org.key, { from: payer, to: payee, amount: '10.00' }), 202, 'APPROVAL_REQUIRED');
    });
  });
});
