import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../shared/domain/clock.js';
import { AUDIT } from '../../shared/domain/audit/actions.js';
import { newId } from '../../shared/domain/ids.js';
import { createPaymentService } from '../../shared/domain/payments/payment-service.js';
import type { Policy } from '../../shared/domain/policies/policy-types.js';
import { createMemoryPaymentStore } from '../fakes/memory-payment-store.js';
import { refusalOf, serviceWorld } from '../fakes/service-world.js';

/**
 * The payment rules of POST /v1/payments over the in-memory PaymentStore (its behaviour held to the
 * DynamoDB store's by test/contracts/payment-store-contract.ts). The HTTP journeys (auth, body
 * validation, idempotency headers, environments) stay in test/e2e/payments.test.ts.
 */
function world() {
  const memory = createMemoryPaymentStore();
  const clock = fixedClock(new Date('2026-11-21T10:00:00.000Z'));
  const base = serviceWorld(clock, memory.table);
  const service = createPaymentService({ ...base.deps, store: memory.store });
  const { scope, ctx, agentCtx, wallet } = base;
  const balanceOf = async (walletId: string) => (await memory.store.getWallet(walletId))!.balance.toFixed(2);
  return { memory, service, ctx, agentCtx, scope, wallet, balanceOf };
}

describe('payment service: the rules of a payment', () => {
  it('posts a payment: both balances move, the journal holds it POSTED', async () => {
    const w = world();
    const payer = w.wallet('100.00');
    const payee = w.wallet('0');
    const answer = await w.service.create(w.ctx, AUDIT.payment.create, {
      from: payer,
      to: payee,
      amount: '12.50',
      description: 'API credits',
    });
    expect(answer).toMatchObject({
      status: 200,
      body: { from: payer, to: payee, amount: '12.50', fee: '0.00', status: 'POSTED', description: 'API credits' },
    });
    expect(await w.balanceOf(payer)).toBe('87.50');
    expect(await w.balanceOf(payee)).toBe('12.50');
    const id = (answer.body as { id: string }).id;
    expect(await w.memory.store.getTransaction(id)).toMatchObject({ status: 'POSTED', amount: '12.50' });
  });

  it.each([['0'], ['-5.00'], ['1.005'], ['abc'], ['1e3'], [0], [-1], [0.001], ['1000000000.01']])(
    'refuses the amount %j with INVALID_AMOUNT and moves nothing',
    async (amount) => {
      const w = world();
      const payer = w.wallet('100.00');
      const payee = w.wallet('0');
      expect(
        await refusalOf(w.service.create(w.ctx, AUDIT.payment.create, { from: payer, to: payee, amount })),
      ).toMatchObject({ code: 'INVALID_AMOUNT', details: { field: 'amount' } });
      expect(await w.balanceOf(payer)).toBe('100.00');
    },
  );

  it('refuses a payment to the paying wallet with SELF_PAYMENT', async () => {
    const w = world();
    const payer = w.wallet('100.00');
    expect(
      await refusalOf(w.service.create(w.ctx, AUDIT.payment.create, { from: payer, to: payer, amount: '1.00' })),
    ).toMatchObject({ code: 'SELF_PAYMENT' });
    expect(await w.balanceOf(payer)).toBe('100.00');
  });

  it("answers WALLET_NOT_FOUND for an unknown payer or payee, and for another organization's wallet as payer (moving nothing)", async () => {
    const w = world();
    const payer = w.wallet('100.00');
    const payee = w.wallet('0');
    const foreign = w.wallet('10.00', {}, { organizationId: newId('organization'), environment: 'SANDBOX' });
    const unknown = 'wal_doesnotexist000000000000';
    expect(
      await refusalOf(w.service.create(w.ctx, AUDIT.payment.create, { from: unknown, to: payee, amount: '1.00' })),
    ).toMatchObject({ code: 'WALLET_NOT_FOUND' });
    expect(
      await refusalOf(w.service.create(w.ctx, AUDIT.payment.create, { from: payer, to: unknown, amount: '1.00' })),
    ).toMatchObject({ code: 'WALLET_NOT_FOUND' });
    expect(
      await refusalOf(w.service.create(w.ctx, AUDIT.payment.create, { from: foreign, to: payee, amount: '1.00' })),
    ).toMatchObject({ code: 'WALLET_NOT_FOUND' });
    expect(await w.balanceOf(foreign)).toBe('10.00');
    expect(await w.balanceOf(payer)).toBe('100.00');
  });

  it('pays a wallet of another organization in the same environment', async () => {
    const w = world();
    const payer = w.wallet('50.00');
    const payee = w.wallet('0', {}, { organizationId: newId('organization'), environment: 'SANDBOX' });
    expect(
      await w.service.create(w.ctx, AUDIT.payment.create, { from: payer, to: payee, amount: '20.00' }),
    ).toMatchObject({ status: 200, body: { status: 'POSTED' } });
    expect([await w.balanceOf(payer), await w.balanceOf(payee)]).toEqual(['30.00', '20.00']);
  });

  it('refuses more than the balance with INSUFFICIENT_FUNDS (walletId, balance, requested) and moves nothing', async () => {
    const w = world();
    const poor = w.wallet('5.00');
    const payee = w.wallet('0');
    const refused = await refusalOf(
      w.service.create(w.ctx, AUDIT.payment.create, { from: poor, to: payee, amount: '5.01' }),
    );
    expect(refused).toMatchObject({ code: 'INSUFFICIENT_FUNDS', details: { walletId: poor } });
    const details = (refused as { details: Record<string, unknown> }).details;
    expect([Number(details.balance), Number(details.requested)]).toEqual([5, 5.01]);
    expect(await w.balanceOf(poor)).toBe('5.00');
    expect(await w.balanceOf(payee)).toBe('0.00');
  });

  it('refuses a payment from (or to) a frozen wallet with WALLET_FROZEN and moves nothing', async () => {
    const w = world();
    const paused = w.wallet('10.00', { status: 'FROZEN' });
    const payee = w.wallet('0');
    const payer = w.wallet('10.00');
    expect(
      await refusalOf(w.service.create(w.ctx, AUDIT.payment.create, { from: paused, to: payee, amount: '1.00' })),
    ).toEqual({ code: 'WALLET_FROZEN', details: { walletId: paused } });
    expect(
      await refusalOf(w.service.create(w.ctx, AUDIT.payment.create, { from: payer, to: paused, amount: '1.00' })),
    ).toEqual({ code: 'WALLET_FROZEN', details: { walletId: paused } });
    expect([await w.balanceOf(paused), await w.balanceOf(payer)]).toEqual(['10.00', '10.00']);
  });

  it('lets an agent key pay only from its own wallet: another wallet of the organization answers WALLET_NOT_FOUND', async () => {
    const w = world();
    const agentWallet = w.wallet('10.00', { walletType: 'AGENT' });
    const other = w.wallet('10.00');
    const payee = w.wallet('0');
    expect(
      await refusalOf(
        w.service.create(w.agentCtx(agentWallet), AUDIT.payment.create, { from: other, to: payee, amount: '1.00' }),
      ),
    ).toMatchObject({ code: 'WALLET_NOT_FOUND' });
    expect(
      await w.service.create(w.agentCtx(agentWallet), AUDIT.payment.create, {
        from: agentWallet,
        to: payee,
        amount: '1.00',
      }),
    ).toMatchObject({ status: 200 });
    expect([await w.balanceOf(agentWallet), await w.balanceOf(other)]).toEqual(['9.00', '10.00']);
  });

  it('refuses a payment over a daily limit of the payer with POLICY_DENIED before funds, and counts spend within it', async () => {
    const w = world();
    const payer = w.wallet('1000.00');
    const payee = w.wallet('0');
    const policy: Policy = {
      id: newId('policy'),
      walletId: payer,
      ...w.scope,
      name: 'Daily cap',
      maxTransactionAmount: new Big('500'),
      requireHumanApproval: false,
      dailyLimit: new Big('50'),
      status: 'ACTIVE',
      createdAt: '2026-11-20T10:00:00.000Z',
      updatedAt: '2026-11-20T10:00:00.000Z',
    };
    w.memory.addPolicy(payer, policy);
    expect(
      await w.service.create(w.ctx, AUDIT.payment.create, { from: payer, to: payee, amount: '40.00' }),
    ).toMatchObject({ status: 200 });
    expect(
      await refusalOf(w.service.create(w.ctx, AUDIT.payment.create, { from: payer, to: payee, amount: '10.01' })),
    ).toMatchObject({ code: 'POLICY_DENIED', details: { rule: 'dailyLimit', remaining: '10.00' } });
    expect(
      await w.service.create(w.ctx, AUDIT.payment.create, { from: payer, to: payee, amount: '10.00' }),
    ).toMatchObject({ status: 200 });
    expect(await w.balanceOf(payer)).toBe('950.00');
  });
});
