import { describe, expect, it } from 'vitest';
import { setupE2e } from '../fixtures/e2e-setup.js';
import { expectApiError, expectStatus } from '../fixtures/payments-client.js';

describe('payments: POST /v1/payments/batch', () => {
  const { service, ledger, org } = setupE2e({ organizations: { org: 'Batch Org' } });

  const batch = (body: unknown, key = org.key, headers?: Record<string, string>) =>
    service.call('POST', '/v1/payments/batch', { key, body, ...(headers ? { headers } : {}) });

  async function wallets(amount = '100.00') {
    return {
      payer: await ledger.fundedWallet(org, amount),
      payeeA: await ledger.fundedWallet(org, undefined, 'Payee A'),
      payeeB: await ledger.fundedWallet(org, undefined, 'Payee B'),
    };
  }

  it('posts every item and answers 200 {data: [...]} in item order', async () => {
    // Prepare
    const { payer, payeeA, payeeB } = await wallets();

    // Act
    const response = await batch({
      payments: [
        { from: payer, to: payeeA, amount: '10.00' },
        { from: payer, to: payeeB, amount: 15, description: 'second' },
      ],
    });

    // Assess
    expectStatus(response, 200);
    expect(response.body.data).toHaveLength(2);
    expect(response.body.data[0]).toMatchObject({
      from: payer,
      to: payeeA,
      amount: '10.00',
      fee: '0.00',
      status: 'POSTED',
    });
    expect(response.body.data[1]).toMatchObject({
      from: payer,
      to: payeeB,
      amount: '15.00',
      status: 'POSTED',
      description: 'second',
    });
    expect(await ledger.balanceOf(org.key, payer)).toBe('75.00000000');
    await ledger.expectLedgerBalanced();
  });

  it('answers 207 BATCH_PARTIAL_FAILURE with a result per item when some fail, posting the others', async () => {
    // Prepare
    const { payer, payeeA, payeeB } = await wallets('50.00');
    const items = [
      { from: payer, to: payeeA, amount: '30.00' },
      { from: payer, to: payeeB, amount: '30.00' },
      { from: payer, to: payer, amount: '1.00' },
      { from: payer, to: payeeB, amount: '0' },
      { from: payer, to: 'wal_doesnotexist000000000000', amount: '1.00' },
      { from: payer, to: payeeB, amount: '20.00' },
    ];

    // Act
    const response = await batch({ payments: items });

    // Assess
    const error = expectApiError(response, 207, 'BATCH_PARTIAL_FAILURE');
    const results = error.details!.results as { index: number; status: number; payment?: any; error?: any }[];
    expect(results.map((r) => [r.index, r.status, r.error?.code ?? r.payment?.status])).toEqual([
      [0, 200, 'POSTED'],
      [1, 402, 'INSUFFICIENT_FUNDS'],
      [2, 400, 'SELF_PAYMENT'],
      [3, 400, 'INVALID_AMOUNT'],
      [4, 404, 'WALLET_NOT_FOUND'],
      [5, 200, 'POSTED'],
    ]);
    expect(results[0]!.payment).toMatchObject({ to: payeeA, amount: '30.00' });
    expect(results[1]!.error).not.toHaveProperty('payment');
    expect(await ledger.balanceOf(org.key, payer)).toBe('0.00000000');
    expect(await ledger.balanceOf(org.key, payeeB)).toBe('20.00000000');
    await ledger.expectLedgerBalanced();
  });

  it('answers 207 with the APPROVAL_REQUIRED item queued, not posted', async () => {
    // Prepare
    const { payer, payeeA } = await wallets();
    await ledger.createPolicy(org.key, { walletId: payer, approvalThreshold: '50.00' });

    // Act
    const response = await batch({
      payments: [
        { from: payer, to: payeeA, amount: '10.00' },
        { from: payer, to: payeeA, amount: '60.00' },
      ],
    });

    // Assess
    const results = expectApiError(response, 207, 'BATCH_PARTIAL_FAILURE').details!.results as any[];
    expect(results[0]).toMatchObject({ index: 0, status: 200 });
    expect(results[1]).toMatchObject({
      index: 1,
      status: 202,
      error: { code: 'APPROVAL_REQUIRED', details: { approvalId: expect.stringMatching(/^apr_/) } },
    });
    expect(await ledger.balanceOf(org.key, payer)).toBe('90.00000000');
  });

  it('answers 400 VALIDATION_ERROR for more than 100 items or none, posting nothing', async () => {
    // Prepare
    const { payer, payeeA } = await wallets();
    const item = { from: payer, to: payeeA, amount: '0.01' };

    // Act
    const tooMany = await batch({ payments: Array.from({ length: 101 }, () => item) });
    const none = await batch({ payments: [] });

    // Assess
    expectApiError(tooMany, 400, 'VALIDATION_ERROR');
    expectApiError(none, 400, 'VALIDATION_ERROR');
    expect(await ledger.balanceOf(org.key, payer)).toBe('100.00000000');
  });

  it('accepts exactly 100 items', async () => {
    // Prepare
    const { payer, payeeA } = await wallets();

    // Act
    const response = await batch({
      payments: Array.from({ length: 100 }, () => ({ from: payer, to: payeeA, amount: '0.01' })),
    });

    // Assess
    expectStatus(response, 200);
    expect(response.body.data).toHaveLength(100);
    expect(await ledger.balanceOf(org.key, payeeA)).toBe('1.00000000');
  });

  it('answers 400 VALIDATION_ERROR for an unknown field in an item or the batch', async () => {
    const { payer, payeeA } = await wallets();
    expectApiError(
      await batch({ payments: [{ from: payer, to: payeeA, amount: '1.00', fee: '0.00' }] }),
      400,
      'VALIDATION_ERROR',
    );
    expectApiError(
      await batch({ payments: [{ from: payer, to: payeeA, amount: '1.00' }], mode: 'atomic' }),
      400,
      'VALIDATION_ERROR',
    );
    expect(await ledger.balanceOf(org.key, payer)).toBe('100.00000000');
  });

  it('replays a batch sent again with its idempotency key: same status and body, money moved once', async () => {
    // Prepare
    const { payer, payeeA, payeeB } = await wallets();
    const body = {
      payments: [
        { from: payer, to: payeeA, amount: '10.00' },
        { from: payer, to: payeeB, amount: '5.00' },
      ],
      idempotencyKey: 'payroll-1',
    };
    const first = await batch(body);

    // Act
    const second = await batch(body);
    const viaHeader = await batch({ payments: body.payments }, org.key, { 'Idempotency-Key': 'payroll-1' });

    // Assess
    expectStatus(first, 200);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(viaHeader.body).toEqual(first.body);
    expect(await ledger.balanceOf(org.key, payer)).toBe('85.00000000');
  });

  it('answers 409 IDEMPOTENCY_KEY_REUSE for a batch key sent again with other payments, posting nothing new', async () => {
    // Prepare
    const { payer, payeeA, payeeB } = await wallets();
    const first = await batch({
      payments: [{ from: payer, to: payeeA, amount: '10.00' }],
      idempotencyKey: 'payroll-2',
    });

    // Act
    const response = await batch({
      payments: [
        { from: payer, to: payeeA, amount: '10.00' },
        { from: payer, to: payeeB, amount: '20.00' },
      ],
      idempotencyKey: 'payroll-2',
    });

    // Assess
    expectStatus(first, 200);
    expectApiError(response, 409, 'IDEMPOTENCY_KEY_REUSE');
    expect(await ledger.balanceOf(org.key, payeeB)).toBe('0.00000000');
    expect(await ledger.balanceOf(org.key, payer)).toBe('90.00000000');
  });

  it('replays a partially failed batch as the same 207 answer, without running the failed items again', async () => {
    // Prepare
    const { payer, payeeA, payeeB } = await wallets('10.00');
    const body = {
      payments: [
        { from: payer, to: payeeA, amount: '10.00' },
        { from: payer, to: payeeB, amount: '5.00' },
      ],
      idempotencyKey: 'payroll-3',
    };
    const first = await batch(body);
    await ledger.fund(org.key, payer, '50.00');

    // Act
    const second = await batch(body);

    // Assess
    expectApiError(first, 207, 'BATCH_PARTIAL_FAILURE');
    expect(second.status).toBe(207);
    expect(second.body).toEqual(first.body);
    expect(await ledger.balanceOf(org.key, payeeB)).toBe('0.00000000');
    expect(await ledger.balanceOf(org.key, payer)).toBe('50.00000000');
  });

  it('answers 403 PERMISSION_DENIED for a key without payments:write and 401 without a key', async () => {
    // Prepare
    const { payer, payeeA } = await wallets();
    const reader = await ledger.createKey(org, ['payments:read', 'wallets:read']);
    const body = { payments: [{ from: payer, to: payeeA, amount: '1.00' }] };

    // Act
    const denied = await batch(body, reader.key);
    const anonymous = await service.call('POST', '/v1/payments/batch', { body });

    // Assess
    expectApiError(denied, 403, 'PERMISSION_DENIED');
    expectApiError(anonymous, 401, 'UNAUTHORIZED');
    expect(await ledger.balanceOf(org.key, payer)).toBe('100.00000000');
  });
});
