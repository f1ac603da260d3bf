import { describe, expect, it } from 'vitest';
import { setupE2e } from '../fixtures/e2e-setup.js';
import { expectApiError, expectStatus } from '../fixtures/payments-client.js';

describe('payments: idempotency keys', () => {
  const { service, ledger, org } = setupE2e({ organizations: { org: 'Idempotent Org' } });

  async function wallets() {
    return {
      payer: await ledger.fundedWallet(org, '100.00'),
      payee: await ledger.fundedWallet(org, undefined, 'Payee'),
    };
  }

  it('replays the first response with the same status and body and Idempotent-Replayed: true, posting once', async () => {
    // Prepare
    const { payer, payee } = await wallets();
    const body = { from: payer, to: payee, amount: '10.00', idempotencyKey: 'order-1' };
    const first = await ledger.pay(org.key, body);

    // Act
    const second = await ledger.pay(org.key, body);

    // Assess
    expectStatus(first, 200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(first.body.idempotencyKey).toBe('order-1');
    expect(await ledger.balanceOf(org.key, payer)).toBe('90.00000000');
  });

  it('treats 10, "10" and "10.00" as the same amount', async () => {
    // Prepare
    const { payer, payee } = await wallets();
    const first = await ledger.pay(org.key, { from: payer, to: payee, amount: 10, idempotencyKey: 'same-amount' });

    // Act
    const asText = await ledger.pay(org.key, { from: payer, to: payee, amount: '10', idempotencyKey: 'same-amount' });
    const asCents = await ledger.pay(org.key, {
      from: payer,
      to: payee,
      amount: '10.00',
      idempotencyKey: 'same-amount',
    });

    // Assess
    expectStatus(first, 200);
    for (const replay of [asText, asCents]) {
      expect(replay.status).toBe(200);
      expect(replay.body).toEqual(first.body);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
    }
    expect(await ledger.balanceOf(org.key, payer)).toBe('90.00000000');
  });

  it('accepts the key in the Idempotency-Key header, and the same key in body and header', async () => {
    // Prepare
    const { payer, payee } = await wallets();
    const body = { from: payer, to: payee, amount: '5.00' };
    const first = await ledger.pay(org.key, body, { 'Idempotency-Key': 'header-only' });

    // Act
    const viaBody = await ledger.pay(org.key, { ...body, idempotencyKey: 'header-only' });
    const viaBoth = await ledger.pay(
      org.key,
      { ...body, idempotencyKey: 'header-only' },
      { 'Idempotency-Key': 'header-only' },
    );

    // Assess
    expectStatus(first, 200);
    expect(viaBody.body).toEqual(first.body);
    expect(viaBoth.body).toEqual(first.body);
    expect(viaBoth.headers.get('idempotent-replayed')).toBe('true');
    expect(await ledger.balanceOf(org.key, payer)).toBe('95.00000000');
  });

  it.each([
    ['another amount', { amount: '11.00' }],
    ['another payee', { to: 'OTHER' }],
    ['another description', { description: 'changed' }],
  ])('answers 409 IDEMPOTENCY_KEY_REUSE for the same key with %s, and moves nothing more', async (_what, change) => {
    // Prepare
    const { payer, payee } = await wallets();
    const otherPayee = await ledger.fundedWallet(org, undefined, 'Other payee');
    const key = `reuse-${Object.keys(change)[0]}`;
    expectStatus(await ledger.pay(org.key, { from: payer, to: payee, amount: '10.00', idempotencyKey: key }), 200);
    const changed = { from: payer, to: payee, amount: '10.00', idempotencyKey: key, ...change };
    if (changed.to === 'OTHER') changed.to = otherPayee;

    // Act
    const response = await ledger.pay(org.key, changed);

    // Assess
    expectApiError(response, 409, 'IDEMPOTENCY_KEY_REUSE');
    expect(await ledger.balanceOf(org.key, payer)).toBe('90.00000000');
    expect(await ledger.balanceOf(org.key, otherPayee)).toBe('0.00000000');
  });

  it('replays a 202 APPROVAL_REQUIRED answer with the same approval, queuing one payment', async () => {
    // Prepare
    const { payer, payee } = await wallets();
    await ledger.createPolicy(org.key, { walletId: payer, requireHumanApproval: true });
    const body = { from: payer, to: payee, amount: '10.00', idempotencyKey: 'queued-once' };
    const first = await ledger.pay(org.key, body);

    // Act
    const second = await ledger.pay(org.key, body);

    // Assess
    expectApiError(first, 202, 'APPROVAL_REQUIRED');
    expect(second.status).toBe(202);
    expect(second.body).toEqual(first.body);
    const pending = await service.call('GET', `/v1/approvals?status=PENDING&walletId=${payer}`, { key: org.key });
    expect(pending.body.data).toHaveLength(1);
  });

  it('replays a 402 INSUFFICIENT_FUNDS first answer for the same key, even after the wallet was funded', async () => {
    // Prepare
    const payer = await ledger.fundedWallet(org, '5.00');
    const payee = await ledger.fundedWallet(org, undefined, 'Payee');
    const body = { from: payer, to: payee, amount: '10.00', idempotencyKey: 'declined-once' };
    const first = await ledger.pay(org.key, body);
    await ledger.fund(org.key, payer, '50.00');

    // Act
    const second = await ledger.pay(org.key, body);

    // Assess
    expectApiError(first, 402, 'INSUFFICIENT_FUNDS');
    expect(second.status).toBe(402);
    expect(second.body).toEqual(first.body);
    expect(await ledger.balanceOf(org.key, payer)).toBe('55.00000000');
  });

  it('keeps keys per organization: another organization may use the same key for its own payment', async () => {
    // Prepare
    const { payer, payee } = await wallets();
    const other = await service.createOrganization('Other Org');
    const otherPayer = await ledger.fundedWallet(other, '50.00');
    const otherPayee = await ledger.fundedWallet(other, undefined, 'Payee');
    expectStatus(
      await ledger.pay(org.key, { from: payer, to: payee, amount: '10.00', idempotencyKey: 'shared-key' }),
      200,
    );

    // Act
    const response = await ledger.pay(other.key, {
      from: otherPayer,
      to: otherPayee,
      amount: '20.00',
      idempotencyKey: 'shared-key',
    });

    // Assess
    expectStatus(response, 200);
    expect(response.headers.get('idempotent-replayed')).toBeNull();
    expect(response.body).toMatchObject({ from: otherPayer, amount: '20.00' });
    expect(await ledger.balanceOf(other.key, otherPayer)).toBe('30.00000000');
  });

  it('creates a new payment on every retry without a key', async () => {
    // Prepare
    const { payer, payee } = await wallets();
    const body = { from: payer, to: payee, amount: '10.00' };

    // Act
    const first = await ledger.pay(org.key, body);
    const second = await ledger.pay(org.key, body);

    // Assess
    expectStatus(first, 200);
    expectStatus(second, 200);
    expect(second.body.id).not.toBe(first.body.id);
    expect(await ledger.balanceOf(org.key, payer)).toBe('80.00000000');
    await ledger.expectLedgerBalanced();
  });
});
