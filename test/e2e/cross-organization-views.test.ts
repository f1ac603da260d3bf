import { describe, expect, it } from 'vitest';
import { setupE2e } from '../fixtures/e2e-setup.js';
import { expectApiError, expectStatus } from '../fixtures/payments-client.js';

/** Defect 10 (issue 9): what one organization sees of another's (decisions.md sections 1 and 3). */
describe('cross-organization views', () => {
  const { service, ledger, payer, payee } = setupE2e({ organizations: { payer: 'Payer org', payee: 'Payee org' } });

  it("answers 404 WALLET_NOT_FOUND for GET /v1/approvals?walletId=<another organization's wallet>", async () => {
    const wallet = await ledger.fundedWallet(payer, '100.00');
    const vendor = await ledger.fundedWallet(payer, undefined, 'Vendor');
    await ledger.createPolicy(payer.key, { walletId: wallet, requireHumanApproval: true });
    const requester = await ledger.createKey(payer, ['payments:write', 'payments:read'], 'Requester');
    await ledger.queuedPayment(requester.key, { from: wallet, to: vendor, amount: '5.00' });

    const foreign = await service.call('GET', `/v1/approvals?walletId=${wallet}`, { key: payee.key });
    const own = await service.call('GET', `/v1/approvals?walletId=${wallet}`, { key: payer.key });
    const unknown = await service.call('GET', '/v1/approvals?walletId=wal_doesnotexist0000000000', { key: payer.key });

    expectApiError(foreign, 404, 'WALLET_NOT_FOUND');
    expectStatus(own, 200);
    expect(own.body.data).toHaveLength(1);
    expectApiError(unknown, 404, 'WALLET_NOT_FOUND');
  });

  it("hides the payer's idempotencyKey from the payee organization (get and list), and the payee's reversal key from the payer", async () => {
    const from = await ledger.fundedWallet(payer, '100.00');
    const to = await ledger.fundedWallet(payee, undefined, 'Shop');
    const payment = await ledger.paid(payer.key, {
      from,
      to,
      amount: '12.00',
      idempotencyKey: 'payer-secret-order-77',
    });

    const payerView = await ledger.getPayment(payer.key, payment.id);
    const payeeView = await ledger.getPayment(payee.key, payment.id);
    const payeeList = await service.call('GET', `/v1/payments?walletId=${to}`, { key: payee.key });
    const payerList = await service.call('GET', `/v1/payments?walletId=${from}`, { key: payer.key });

    expectStatus(payerView, 200);
    expect(payerView.body.idempotencyKey).toBe('payer-secret-order-77');
    expectStatus(payeeView, 200);
    expect(payeeView.body).toMatchObject({ id: payment.id, amount: '12.00', idempotencyKey: null });
    expect(payeeView.text).not.toContain('payer-secret-order-77');
    expectStatus(payeeList, 200);
    expect(payeeList.text).not.toContain('payer-secret-order-77');
    expect(payeeList.body.data.find((p: { id: string }) => p.id === payment.id)).toMatchObject({
      idempotencyKey: null,
    });
    expect(payerList.body.data.find((p: { id: string }) => p.id === payment.id)).toMatchObject({
      idempotencyKey: 'payer-secret-order-77',
    });

    const reversal = await service.call('POST', `/v1/payments/${payment.id}/reverse`, {
      key: payee.key,
      body: { idempotencyKey: 'payee-refund-1' },
    });
    expectStatus(reversal, 200);
    expect(reversal.body.idempotencyKey).toBe('payee-refund-1');
    const reversalSeenByPayer = await ledger.getPayment(payer.key, reversal.body.id);
    expectStatus(reversalSeenByPayer, 200);
    expect(reversalSeenByPayer.body.idempotencyKey).toBeNull();
    expect((await ledger.getPayment(payee.key, reversal.body.id)).body.idempotencyKey).toBe('payee-refund-1');
  });

  it('shows the key to both sides when both wallets belong to the organization that paid', async () => {
    const from = await ledger.fundedWallet(payer, '10.00');
    const to = await ledger.fundedWallet(payer, undefined, 'Own payee');
    const payment = await ledger.paid(payer.key, { from, to, amount: '1.00', idempotencyKey: 'internal-move-1' });

    expect((await service.call('GET', `/v1/payments?walletId=${to}`, { key: payer.key })).body.data[0]).toMatchObject({
      id: payment.id,
      idempotencyKey: 'internal-move-1',
    });
  });
});
