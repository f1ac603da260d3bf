import { describe, expect, it } from 'vitest';
import { setupE2e } from '../fixtures/e2e-setup.js';
import { expectApiError, expectStatus, type Organization } from '../fixtures/payments-client.js';
import { eventually } from '../fixtures/eventually.js';

describe('payments: POST /v1/payments/:id/reverse', () => {
  const { service, ledger, payerOrg, payeeOrg } = setupE2e({
    organizations: { payerOrg: 'Paying Org', payeeOrg: 'Receiving Org' },
  });

  const reverse = (
    key: string,
    paymentId: string,
    options: { body?: unknown; headers?: Record<string, string> } = {},
  ) => service.call('POST', `/v1/payments/${paymentId}/reverse`, { key, ...options });

  /** A posted payment of `amount` from a wallet of the paying org (holding 100.00) to a wallet of `payeeOwner`. */
  async function postedPayment(payeeOwner: Organization, amount = '40.00') {
    const payer = await ledger.fundedWallet(payerOrg, '100.00');
    const payee = await ledger.fundedWallet(payeeOwner, undefined, 'Payee');
    const payment = await ledger.paid(payerOrg.key, { from: payer, to: payee, amount });
    return { payer, payee, paymentId: payment.id as string };
  }

  it('lets the receiving organization reverse: mirror transaction posted, original REVERSED, balances restored', async () => {
    // Prepare
    const { payer, payee, paymentId } = await postedPayment(payeeOrg);

    // Act
    const response = await reverse(payeeOrg.key, paymentId);

    // Assess
    expectStatus(response, 200);
    expect(response.body).toMatchObject({
      id: expect.stringMatching(/^txn_/),
      type: 'REVERSAL',
      from: payee,
      to: payer,
      amount: '40.00',
      fee: '0.00',
      status: 'POSTED',
      reversalOf: paymentId,
    });
    const original = await ledger.getPayment(payerOrg.key, paymentId);
    expect(original.body).toMatchObject({ status: 'REVERSED', reversedBy: response.body.id });
    expect(await ledger.balanceOf(payerOrg.key, payer)).toBe('100.00000000');
    expect(await ledger.balanceOf(payeeOrg.key, payee)).toBe('0.00000000');
    await ledger.expectLedgerBalanced();
  });

  it('writes a payment.reversed audit entry for the reversing organization', async () => {
    // Prepare
    const { paymentId } = await postedPayment(payeeOrg);

    // Act
    expectStatus(await reverse(payeeOrg.key, paymentId), 200);

    // Assess: projected from the reversal's journal record, visible within 2 s
    await eventually(async () => {
      const entries = await ledger.auditOf(payeeOrg.organizationId);
      expect(entries.find((e) => e.action === 'payment.reversed' && e.resourceId === paymentId)).toMatchObject({
        actorType: 'API_KEY',
        actorId: payeeOrg.keyId,
      });
    });
  });

  it('lets the paying organization reverse when both wallets are its own', async () => {
    // Prepare
    const { payer, payee, paymentId } = await postedPayment(payerOrg, '25.00');

    // Act
    const response = await reverse(payerOrg.key, paymentId);

    // Assess
    expectStatus(response, 200);
    expect(response.body).toMatchObject({ from: payee, to: payer, reversalOf: paymentId });
    expect(await ledger.balanceOf(payerOrg.key, payer)).toBe('100.00000000');
    await ledger.expectLedgerBalanced();
  });

  it('refuses the paying organization when the payee belongs to another organization, moving nothing', async () => {
    // Prepare
    const { payee, paymentId } = await postedPayment(payeeOrg);

    // Act
    const response = await reverse(payerOrg.key, paymentId);

    // Assess
    expectApiError(response, 422, 'REVERSAL_NOT_ALLOWED');
    expect((await ledger.getPayment(payerOrg.key, paymentId)).body.status).toBe('POSTED');
    expect(await ledger.balanceOf(payeeOrg.key, payee)).toBe('40.00000000');
  });

  it('answers 422 REVERSAL_NOT_ALLOWED for a second reversal, and the money moved back once', async () => {
    // Prepare
    const { payer, paymentId } = await postedPayment(payeeOrg);
    expectStatus(await reverse(payeeOrg.key, paymentId), 200);

    // Act
    const second = await reverse(payeeOrg.key, paymentId);

    // Assess
    expectApiError(second, 422, 'REVERSAL_NOT_ALLOWED');
    expect(await ledger.balanceOf(payerOrg.key, payer)).toBe('100.00000000');
    await ledger.expectLedgerBalanced();
  });

  it('answers 422 REVERSAL_NOT_ALLOWED for a reversal of a reversal', async () => {
    // Prepare
    const { paymentId } = await postedPayment(payerOrg);
    const reversal = await reverse(payerOrg.key, paymentId);

    // Act
    const response = await reverse(payerOrg.key, reversal.body.id);

    // Assess
    expectApiError(response, 422, 'REVERSAL_NOT_ALLOWED');
  });

  it('answers 422 REVERSAL_NOT_ALLOWED for a QUEUED payment', async () => {
    // Prepare
    const payer = await ledger.fundedWallet(payerOrg, '100.00');
    const payee = await ledger.fundedWallet(payerOrg, undefined, 'Payee');
    await ledger.createPolicy(payerOrg.key, { walletId: payer, requireHumanApproval: true });
    const { transactionId } = await ledger.queuedPayment(payerOrg.key, { from: payer, to: payee, amount: '10.00' });

    // Act
    const response = await reverse(payerOrg.key, transactionId);

    // Assess
    expectApiError(response, 422, 'REVERSAL_NOT_ALLOWED');
    expect((await ledger.getPayment(payerOrg.key, transactionId)).body.status).toBe('QUEUED');
  });

  it('answers 402 INSUFFICIENT_FUNDS when the payee has spent the money, leaving the payment POSTED', async () => {
    // Prepare
    const { payer, payee, paymentId } = await postedPayment(payeeOrg);
    const elsewhere = await ledger.fundedWallet(payeeOrg, undefined, 'Elsewhere');
    await ledger.paid(payeeOrg.key, { from: payee, to: elsewhere, amount: '30.00' });

    // Act
    const response = await reverse(payeeOrg.key, paymentId);

    // Assess
    const error = expectApiError(response, 402, 'INSUFFICIENT_FUNDS');
    expect(error.details).toMatchObject({ walletId: payee });
    expect((await ledger.getPayment(payeeOrg.key, paymentId)).body.status).toBe('POSTED');
    expect(await ledger.balanceOf(payerOrg.key, payer)).toBe('60.00000000');
    expect(await ledger.balanceOf(payeeOrg.key, payee)).toBe('10.00000000');
    await ledger.expectLedgerBalanced();
  });

  it('answers 404 TRANSACTION_NOT_FOUND for an unknown payment and for a payment of unrelated organizations', async () => {
    // Prepare
    const stranger = await service.createOrganization('Stranger');
    const { paymentId } = await postedPayment(payeeOrg);

    // Act
    const unknown = await reverse(payerOrg.key, 'txn_doesnotexist0000000000000');
    const foreign = await reverse(stranger.key, paymentId);

    // Assess
    expectApiError(unknown, 404, 'TRANSACTION_NOT_FOUND');
    expectApiError(foreign, 404, 'TRANSACTION_NOT_FOUND');
  });

  it('replays a reversal made with an idempotency key instead of refusing it', async () => {
    // Prepare
    const { payer, paymentId } = await postedPayment(payeeOrg);
    const first = await reverse(payeeOrg.key, paymentId, { headers: { 'Idempotency-Key': 'undo-1' } });

    // Act
    const again = await reverse(payeeOrg.key, paymentId, { headers: { 'Idempotency-Key': 'undo-1' } });

    // Assess
    expectStatus(first, 200);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await ledger.balanceOf(payerOrg.key, payer)).toBe('100.00000000');
  });

  it('answers 400 VALIDATION_ERROR for an unknown body field', async () => {
    const { paymentId } = await postedPayment(payeeOrg);
    expectApiError(await reverse(payeeOrg.key, paymentId, { body: { amount: '1.00' } }), 400, 'VALIDATION_ERROR');
  });

  it('answers 403 PERMISSION_DENIED for a key without payments:write and 401 without a key', async () => {
    // Prepare
    const { paymentId } = await postedPayment(payeeOrg);
    const reader = await ledger.createKey(payeeOrg, ['payments:read']);

    // Act
    const denied = await reverse(reader.key, paymentId);
    const anonymous = await service.call('POST', `/v1/payments/${paymentId}/reverse`);

    // Assess
    expectApiError(denied, 403, 'PERMISSION_DENIED');
    expectApiError(anonymous, 401, 'UNAUTHORIZED');
    expect((await ledger.getPayment(payeeOrg.key, paymentId)).body.status).toBe('POSTED');
  });
});
