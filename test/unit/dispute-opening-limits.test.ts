import { describe, expect, it } from 'vitest';
import { AUDIT } from '../../shared/domain/audit/actions.js';
import { fixedClock } from '../../shared/domain/clock.js';
import { createDisputeService } from '../../shared/domain/disputes/dispute-service.js';
import { newId } from '../../shared/domain/ids.js';
import { paymentPosting } from '../../shared/domain/payments/payment-posting.js';
import type { RequestContext } from '../../shared/domain/tenancy.js';
import type { Transaction } from '../../shared/domain/types.js';
import { createMemoryDisputeStore } from '../fakes/memory-dispute-store.js';
import { refusalOf, serviceWorld } from '../fakes/service-world.js';

/**
 * Opening limits (docs/api.md "Disputes"): a paused agent opens no dispute with its own key, and
 * the initiator's refusals for funds of one payment are bounded (balance probing).
 */
const AT = '2026-11-27T10:00:00.000Z';
const DAY_MS = 24 * 3600_000;

function world() {
  const clock = fixedClock(new Date(AT));
  const memory = createMemoryDisputeStore();
  const payer = serviceWorld(clock, memory.table);
  const payee = serviceWorld(clock, memory.table);
  const service = createDisputeService({ ...payer.deps, store: memory.store, log: { error: () => undefined } });
  const payerWallet = payer.wallet('100.00');
  /** The receiving wallet holds only what the payment brought it. */
  const payeeWallet = payee.wallet('0.00');

  async function paid(amount: string) {
    const transaction: Transaction = {
      id: newId('transaction'),
      type: 'PAYMENT',
      organizationId: payer.scope.organizationId,
      environment: 'SANDBOX',
      from: payerWallet,
      to: payeeWallet,
      payeeOrganizationId: payee.scope.organizationId,
      amount,
      fee: '0.00',
      currency: 'USD',
      status: 'POSTED',
      createdAt: AT,
      postedAt: AT,
    };
    await memory.store.commit([
      paymentPosting({ transaction, record: 'create', actor: payer.ctx.actor, auditAction: AUDIT.payment.create }),
    ]);
    return transaction;
  }

  const open = (ctx: RequestContext, transactionId: string, amount: string, key?: string) =>
    service.open(ctx, AUDIT.dispute.create, { transactionId, type: 'FRAUD', amount, reason: 'r' }, key);
  /** Money the receiving wallet spent elsewhere. */
  async function drain(amount: string) {
    const wallet = (await memory.store.getWallet(payeeWallet))!;
    memory.table.addWallet({ ...wallet, balance: wallet.balance.minus(amount) });
  }
  /** The paying agent paused. */
  async function pause() {
    memory.table.addWallet({ ...(await memory.store.getWallet(payerWallet))!, status: 'FROZEN' });
  }
  return { clock, memory, payer, payerWallet, paid, open, drain, pause };
}

describe('a paused agent opening a dispute', () => {
  it('is refused WALLET_FROZEN with its own key; its organization key still opens', async () => {
    const w = world();
    const payment = await w.paid('40.00');
    await w.pause();

    expect(await refusalOf(w.open(w.payer.agentCtx(w.payerWallet), payment.id, '10.00'))).toEqual({
      code: 'WALLET_FROZEN',
      details: { walletId: w.payerWallet },
    });
    expect(w.memory.table.items.disputes.size).toBe(0);
    expect((await w.open(w.payer.ctx, payment.id, '10.00')).status).toBe(201);
  });
});

describe('balance probing: refusals for funds of one payment', () => {
  it('answers INSUFFICIENT_FUNDS three times, then 429 with retryAfter until 24 hours after the first', async () => {
    const w = world();
    const payment = await w.paid('40.00');
    const other = await w.paid('30.00');
    await w.drain('35.00'); // the receiving wallet holds 35.00 of the 70.00 paid to it

    for (let i = 0; i < 3; i++) {
      expect(await refusalOf(w.open(w.payer.ctx, payment.id, '40.00'))).toEqual({ code: 'INSUFFICIENT_FUNDS' });
      w.clock.advance(3600_000);
    }
    // Even an amount the wallet holds is refused now: the answer tells nothing more.
    expect(await refusalOf(w.open(w.payer.ctx, payment.id, '1.00'))).toEqual({
      code: 'RATE_LIMIT_EXCEEDED',
      details: { retryAfter: (DAY_MS - 3 * 3600_000) / 1000 },
    });
    // Another payment's openings are counted apart.
    expect((await w.open(w.payer.ctx, other.id, '5.00')).status).toBe(201);

    w.clock.set(new Date(Date.parse(AT) + DAY_MS));
    expect(await refusalOf(w.open(w.payer.ctx, payment.id, '40.00'))).toEqual({ code: 'INSUFFICIENT_FUNDS' });
    expect(w.memory.table.items.fundsRefusals.get(payment.id)).toEqual({
      count: 1,
      since: new Date(Date.parse(AT) + DAY_MS).toISOString(),
    });
    expect((await w.open(w.payer.ctx, payment.id, '30.00')).status).toBe(201);
  });

  it('a refusal replayed by its Idempotency-Key is not counted again', async () => {
    const w = world();
    const payment = await w.paid('40.00');
    await w.drain('35.00');

    for (let i = 0; i < 5; i++) expect((await w.open(w.payer.ctx, payment.id, '40.00', 'probe')).status).toBe(402);
    expect(w.memory.table.items.fundsRefusals.get(payment.id)?.count).toBe(1);
  });
});
