import { beforeAll, describe, expect, it } from 'vitest';
import { setupE2e } from '../fixtures/e2e-setup.js';
import { activateProduction } from '../fixtures/organizations.js';
import { expectApiError, expectStatus } from '../fixtures/payments-client.js';
import { eventually } from '../fixtures/eventually.js';

describe('payments: POST /v1/payments', () => {
  const { service, ledger, org, otherOrg } = setupE2e({ organizations: { org: 'Payer Org', otherOrg: 'Payee Org' } });

  describe('success', () => {
    it.each([
      ['a decimal string', '12.50', '12.50'],
      ['a JSON number', 12.5, '12.50'],
      ['a whole number', 7, '7.00'],
    ])(
      'posts a payment with %s amount: 200 POSTED with fee 0.00 and both balances moved',
      async (_kind, amount, expected) => {
        // Prepare
        const payer = await ledger.fundedWallet(org, '100.00');
        const payee = await ledger.fundedWallet(org, undefined, 'Payee');

        // Act
        const response = await ledger.pay(org.key, { from: payer, to: payee, amount, description: 'API credits' });

        // Assess
        expectStatus(response, 200);
        expect(response.body).toMatchObject({
          id: expect.stringMatching(/^txn_/),
          from: payer,
          to: payee,
          amount: expected,
          fee: '0.00',
          status: 'POSTED',
          description: 'API credits',
        });
        const remaining = (100 - Number(expected)).toFixed(8);
        expect(await ledger.balanceOf(org.key, payer)).toBe(remaining);
        expect(await ledger.balanceOf(org.key, payee)).toBe(`${expected}000000`);
        await ledger.expectLedgerBalanced();
      },
    );

    it('pays a wallet of another organization in the same environment', async () => {
      // Prepare
      const payer = await ledger.fundedWallet(org, '50.00');
      const payee = await ledger.fundedWallet(otherOrg, undefined, 'Receiver');

      // Act
      const response = await ledger.pay(org.key, { from: payer, to: payee, amount: '20.00' });

      // Assess
      expectStatus(response, 200);
      expect(response.body).toMatchObject({ from: payer, to: payee, amount: '20.00', status: 'POSTED' });
      expect(await ledger.balanceOf(otherOrg.key, payee)).toBe('20.00000000');
      expect(await ledger.balanceOf(org.key, payer)).toBe('30.00000000');
      await ledger.expectLedgerBalanced();
    });

    it('writes a payment.created audit entry with the amount and recipient', async () => {
      // Prepare
      const payer = await ledger.fundedWallet(org, '10.00');
      const payee = await ledger.fundedWallet(org, undefined, 'Payee');

      // Act
      const payment = await ledger.paid(org.key, { from: payer, to: payee, amount: '3.00' });

      // Assess: projected from the payment's journal record, visible within 2 s
      await eventually(async () => {
        const entry = (await ledger.auditOf(org.organizationId)).find(
          (e) => e.action === 'payment.created' && e.resourceId === payment.id,
        );
        expect(entry).toMatchObject({
          actorType: 'API_KEY',
          actorId: org.keyId,
          metadata: { amount: '3.00', currency: 'USD', recipientWalletId: payee },
        });
      });
    });
  });

  // The service's rules (INVALID_AMOUNT, SELF_PAYMENT, WALLET_NOT_FOUND, INSUFFICIENT_FUNDS, ...) are
  // checked over the in-memory store in test/unit/payment-service.test.ts; here: what the HTTP journey adds.
  describe('errors', () => {
    let payer: string;
    let payee: string;
    beforeAll(async () => {
      payer = await ledger.fundedWallet(org, '100.00');
      payee = await ledger.fundedWallet(org, undefined, 'Payee');
    });

    it('answers 400 VALIDATION_ERROR for an unknown body field', async () => {
      const response = await ledger.pay(org.key, { from: payer, to: payee, amount: '1.00', status: 'POSTED' });
      expectApiError(response, 400, 'VALIDATION_ERROR');
    });

    it('answers 400 VALIDATION_ERROR for a missing amount or payee', async () => {
      expectApiError(await ledger.pay(org.key, { from: payer, to: payee }), 400, 'VALIDATION_ERROR');
      expectApiError(await ledger.pay(org.key, { from: payer, amount: '1.00' }), 400, 'VALIDATION_ERROR');
    });

    it('answers 400 VALIDATION_ERROR when the body idempotencyKey differs from the Idempotency-Key header', async () => {
      // Act
      const response = await ledger.pay(
        org.key,
        { from: payer, to: payee, amount: '1.00', idempotencyKey: 'body-key' },
        { 'Idempotency-Key': 'header-key' },
      );

      // Assess
      const error = expectApiError(response, 400, 'VALIDATION_ERROR');
      expect(error.details?.field).toBe('idempotencyKey');
      expect(await ledger.balanceOf(org.key, payer)).toBe('100.00000000');
    });

    it('answers 403 WALLET_FROZEN for a payment from a paused agent wallet', async () => {
      // Prepare
      const agent = await ledger.createAgent(org, 'Pausable');
      await ledger.fund(org.key, agent.walletId, '10.00');
      expectStatus(await service.call('POST', `/v1/agents/${agent.walletId}/pause`, { key: org.key }), 200);

      // Act
      const response = await ledger.pay(org.key, { from: agent.walletId, to: payee, amount: '1.00' });

      // Assess
      expectApiError(response, 403, 'WALLET_FROZEN');
      expect(await ledger.balanceOf(org.key, agent.walletId)).toBe('10.00000000');
    });

    it('answers 403 PERMISSION_DENIED for a key without payments:write', async () => {
      // Prepare
      const reader = await ledger.createKey(org, ['wallets:read', 'payments:read']);

      // Act
      const response = await ledger.pay(reader.key, { from: payer, to: payee, amount: '1.00' });

      // Assess
      expectApiError(response, 403, 'PERMISSION_DENIED');
      expect(await ledger.balanceOf(org.key, payer)).toBe('100.00000000');
    });

    it('answers 401 UNAUTHORIZED without a key or with an unknown key', async () => {
      expectApiError(
        await service.call('POST', '/v1/payments', { body: { from: payer, to: payee, amount: '1.00' } }),
        401,
        'UNAUTHORIZED',
      );
      expectApiError(
        await ledger.pay('svc_test_notarealkey', { from: payer, to: payee, amount: '1.00' }),
        401,
        'UNAUTHORIZED',
      );
    });

    it('lets an agent key pay only from its own wallet: another wallet answers 404 WALLET_NOT_FOUND', async () => {
      // Prepare
      const agent = await ledger.createAgent(org, 'Scoped');
      await ledger.fund(org.key, agent.walletId, '10.00');

      // Act
      const foreign = await ledger.pay(agent.key, { from: payer, to: payee, amount: '1.00' });
      const own = await ledger.pay(agent.key, { from: agent.walletId, to: payee, amount: '1.00' });

      // Assess
      expectApiError(foreign, 404, 'WALLET_NOT_FOUND');
      expectStatus(own, 200);
    });
  });

  describe('environments', () => {
    it('answers 403 ENVIRONMENT_MISMATCH for a production wallet named with a sandbox key, either side', async () => {
      // Prepare
      const liveOrg = await service.createOrganization('Live Org');
      await activateProduction(service, liveOrg);
      const liveKey = await service.call('POST', '/v1/api-keys', {
        key: liveOrg.key,
        body: { name: 'live', permissions: ['wallets:read'], environment: 'PRODUCTION' },
      });
      expectStatus(liveKey, 201);
      const liveWallets = await service.call('GET', '/v1/wallets', { key: liveKey.body.key });
      const liveWallet = liveWallets.body.data[0].id as string;
      const sandboxWallet = await ledger.fundedWallet(liveOrg, '10.00');

      // Act
      const asPayer = await ledger.pay(liveOrg.key, { from: liveWallet, to: sandboxWallet, amount: '1.00' });
      const asPayee = await ledger.pay(liveOrg.key, { from: sandboxWallet, to: liveWallet, amount: '1.00' });
      const foreignPayee = await ledger.pay(org.key, {
        from: await ledger.fundedWallet(org, '1.00'),
        to: liveWallet,
        amount: '1.00',
      });

      // Assess
      expectApiError(asPayer, 403, 'ENVIRONMENT_MISMATCH');
      expectApiError(asPayee, 403, 'ENVIRONMENT_MISMATCH');
      expectApiError(foreignPayee, 404, 'WALLET_NOT_FOUND');
      expect(await ledger.balanceOf(liveOrg.key, sandboxWallet)).toBe('10.00000000');
    });
  });
});
