import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import { AUDIT } from '../../shared/domain/audit/actions.js';
import { ApiError } from '../../shared/domain/errors.js';
import { invoiceFeesOf } from '../../shared/domain/invoices/invoice-fees.js';
import { invoicePayment } from '../../shared/domain/invoices/invoice-postings.js';
import { legsOf } from '../../shared/domain/ledger/journal.js';
import { assertBalanced } from '../../shared/domain/ledger/posting.js';
import type { ChargeRequest } from '../../shared/domain/payment-methods/processor.js';
import { BANK, invoiceWorld } from '../fakes/invoice-world.js';
import { refusalOf } from '../fakes/service-world.js';

/** Invoices: races between payments, charges, voids and refunds, and the exactness of the payment posting. Over the memory fakes. */
const CARD = { type: 'card' as const, number: '4242424242424242', expMonth: 12, expYear: 2030, cvc: '123' };
function setup() {
  const { world, clock, store, table, processor, customers, service, walletId, customerId, balanceOf } = invoiceWorld();
  /** Every journal record balances, and the system accounts with the wallets sum to zero. */
  const ledgerSum = () =>
    [...table.items.journal.values()]
      .flatMap((record) => legsOf(record))
      .reduce((sum, leg) => sum.plus(leg.amount), new Big(0))
      .toFixed(2);
  const finalized = async (unitPrice = '75.50') => {
    const draft = await service.create(world.ctx, AUDIT.invoice.create, {
      walletId,
      customerId,
      lineItems: [{ description: 'Widgets', unitPrice }],
    });
    return service.finalize(world.ctx, AUDIT.invoice.finalize, draft.id);
  };
  /** Makes the processor's next charge wait until `release()` (the first request is slow at the processor). */
  function gateFirstCharge() {
    const real = processor.processor.charge.bind(processor.processor);
    let release!: () => void;
    let entered!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const reached = new Promise<void>((resolve) => (entered = resolve));
    let calls = 0;
    processor.processor.charge = async (request: ChargeRequest) => {
      calls += 1;
      if (calls === 1) {
        entered();
        await gate;
      }
      return real(request);
    };
    return { reached, release };
  }
  return {
    ...world,
    clock,
    store,
    table,
    service,
    processor,
    customers,
    walletId,
    customerId,
    balanceOf,
    ledgerSum,
    finalized,
    gateFirstCharge,
  };
}

const settled = <T>(promise: Promise<T>) =>
  promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );

describe('invoice races and money', () => {
  it('a retried keyed charge that races the slow first request never refunds the charge that paid the invoice', async () => {
    const t = setup();
    const input = { walletId: t.walletId, customerId: t.customerId, amount: '100.00', description: 'October' };
    const { reached, release } = t.gateFirstCharge();
    // The client's first request is slow at the processor; it times out and retries with the same key.
    const first = settled(t.service.charge(t.ctx, AUDIT.invoice.charge, input, 'key-retry'));
    await reached;
    const retry = await settled(t.service.charge(t.ctx, AUDIT.invoice.charge, input, 'key-retry'));
    release();
    const original = await first;
    // One of them paid the invoice: the wallet was credited the net of 100.00 by card.
    expect(await t.balanceOf(t.walletId)).toBe('96.30');
    const invoices = (await t.service.list(t.ctx, {}, { limit: 10 })).items;
    expect(invoices.map((i) => i.status)).toEqual(['PAID']);
    // Both requests asked for the same processor charge (the reference is derived from the key):
    // the loser "returned" it, i.e. refunded the very charge that paid the PAID invoice.
    expect(t.processor.refunds, JSON.stringify({ retry, original })).toEqual([]);
  });

  it('two first requests with one key at once never answer a 500 (an id collision Error)', async () => {
    const t = setup();
    const input = { walletId: t.walletId, customerId: t.customerId, amount: '20.00', description: 'Once' };
    // Both requests look for the key's derived invoice before either created it.
    const realGet = t.store.getInvoice.bind(t.store);
    let waiting = 0;
    let bothLooked!: () => void;
    const barrier = new Promise<void>((resolve) => (bothLooked = resolve));
    t.store.getInvoice = async (id: string) => {
      const found = await realGet(id);
      if (++waiting === 2) bothLooked();
      if (waiting <= 2) await barrier;
      return found;
    };
    const results = await Promise.all([
      settled(t.service.charge(t.ctx, AUDIT.invoice.charge, input, 'key-both')),
      settled(t.service.charge(t.ctx, AUDIT.invoice.charge, input, 'key-both')),
    ]);
    for (const result of results) {
      // A client error (the first answer replayed, IDEMPOTENCY_KEY_IN_USE...) is fine; a plain Error is a 500.
      if (!result.ok) expect(result.error, String(result.error)).toBeInstanceOf(ApiError);
    }
    expect(t.processor.charges.size).toBe(1);
  });

  it('a bank debit that loses the race to another payment is returned to the customer', async () => {
    const t = setup();
    const invoice = await t.finalized();
    const [a, b] = await Promise.all([
      settled(t.service.payBySlug(t.ctx, AUDIT.invoice.pay, invoice.slug!, BANK)),
      settled(t.service.payBySlug(t.ctx, AUDIT.invoice.pay, invoice.slug!, BANK)),
    ]);
    const charged = [...t.processor.charges.values()].filter((c) => c.outcome === 'pending');
    expect(charged).toHaveLength(2);
    expect([a.ok, b.ok].filter(Boolean)).toHaveLength(1);
    const stored = await t.service.get(t.ctx, invoice.id);
    const inFlight = stored.pendingPayment!.processorChargeId;
    // The debit not recorded on the invoice will still be settled by the bank: it must be returned.
    const orphan = charged
      .map((c) => (c as { processorChargeId: string }).processorChargeId)
      .find((id) => id !== inFlight)!;
    expect(t.processor.refunds.map((r) => r.processorChargeId)).toContain(orphan);
  });

  it('a bank debit started while a card payment wins is returned to the customer', async () => {
    const t = setup();
    const invoice = await t.finalized();
    const { reached, release } = t.gateFirstCharge();
    const bank = settled(t.service.payBySlug(t.ctx, AUDIT.invoice.pay, invoice.slug!, BANK));
    await reached;
    expect((await t.service.payBySlug(t.ctx, AUDIT.invoice.pay, invoice.slug!, CARD)).status).toBe('PAID');
    release();
    const lost = await bank;
    expect(lost.ok).toBe(false);
    expect((lost as { error: ApiError }).error.code).toBe('INVALID_STATE');
    const bankCharge = [...t.processor.charges.values()].find((c) => c.outcome === 'pending') as {
      processorChargeId: string;
    };
    expect(t.processor.refunds.map((r) => r.processorChargeId)).toContain(bankCharge.processorChargeId);
  });

  it('a bank debit that settles after its wallet was closed is returned, not left in flight forever', async () => {
    const t = setup();
    const invoice = await t.finalized();
    const pending = await t.service.payBySlug(t.ctx, AUDIT.invoice.pay, invoice.slug!, BANK);
    const chargeId = (await t.service.get(t.ctx, invoice.id)).pendingPayment!.processorChargeId;
    expect(pending.pendingPayment).toBeDefined();
    // The wallet's agent is deleted while the ACH debit travels (the wallet is closed).
    const row = t.table.items.wallets.get(t.walletId)!;
    row.wallet = { ...row.wallet, status: 'FROZEN', deletedAt: '2026-11-27T11:00:00.000Z' };
    const outcome = await settled(t.service.settlePendingPayment(invoice.id));
    // The bank took the customer's money: it is either credited, or given back; never neither.
    const stored = await t.service.get(t.ctx, invoice.id);
    const returned = t.processor.refunds.some((r) => r.processorChargeId === chargeId);
    expect({ ok: outcome.ok, status: stored.status, inFlight: stored.pendingPayment !== undefined, returned }).toEqual({
      ok: true,
      status: 'FINALIZED',
      inFlight: false,
      returned: true,
    });
  });

  it('a card payment into a closed wallet is refused and its charge returned', async () => {
    const t = setup();
    const invoice = await t.finalized();
    const row = t.table.items.wallets.get(t.walletId)!;
    row.wallet = { ...row.wallet, status: 'FROZEN', deletedAt: '2026-11-27T11:00:00.000Z' };
    expect(await refusalOf(t.service.payBySlug(t.ctx, AUDIT.invoice.pay, invoice.slug!, CARD))).toMatchObject({
      code: 'INVALID_STATE',
    });
    expect(t.processor.refunds).toHaveLength(1);
    expect(t.ledgerSum()).toBe('0.00');
  });

  it('one invoice slug is not a card-testing oracle: after 10 declines in an hour, 429 without the processor, an event or an audit entry', async () => {
    const t = setup();
    const invoice = await t.finalized();
    const DECLINED = { ...CARD, number: '4000000000000002' };
    const codes: string[] = [];
    for (let i = 0; i < 50; i++) {
      const refusal = await refusalOf(t.service.payBySlug(t.ctx, AUDIT.invoice.pay, invoice.slug!, DECLINED));
      codes.push(refusal === 'OK' ? 'OK' : refusal.code);
    }
    // Every attempt is a real processor charge (and an invoice.payment_failed webhook to the merchant): 10 at most.
    const charged = t.processor.charges.size;
    expect(charged, `${charged} processor charges for 50 attempts on one slug`).toBeLessThanOrEqual(10);
    expect(codes.slice(0, 10).every((code) => code === 'PAYMENT_DECLINED')).toBe(true);
    expect(codes.slice(10).every((code) => code === 'RATE_LIMIT_EXCEEDED')).toBe(true);
    const failedEvents = () => t.table.events.filter((e) => e.type === 'invoice.payment_failed').length;
    expect(failedEvents()).toBe(10);
    expect(t.table.audit.filter((a) => a.action === AUDIT.invoice.paymentFailed)).toHaveLength(10);
    t.clock.advance(30 * 60_000);
    const limited = await refusalOf(t.service.payBySlug(t.ctx, AUDIT.invoice.pay, invoice.slug!, CARD));
    expect(limited).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', details: { retryAfter: 1800 } });
    // The hour after the window's first decline: a good card pays.
    t.clock.advance(30 * 60_000);
    expect((await t.service.payBySlug(t.ctx, AUDIT.invoice.pay, invoice.slug!, CARD)).status).toBe('PAID');
    expect(failedEvents()).toBe(10);
  });

  it('two card payments at once: one PAID posting, the loser charge returned, the ledger balanced', async () => {
    const t = setup();
    const invoice = await t.finalized();
    const results = await Promise.all([
      settled(t.service.payBySlug(t.ctx, AUDIT.invoice.pay, invoice.slug!, CARD)),
      settled(t.service.payBySlug(t.ctx, AUDIT.invoice.pay, invoice.slug!, CARD)),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    const payments = [...t.table.items.journal.values()].filter((r) => r.type === 'INVOICE_PAYMENT');
    expect(payments).toHaveLength(1);
    expect(t.processor.charges.size).toBe(2);
    expect(t.processor.refunds).toHaveLength(1);
    expect(await t.balanceOf(t.walletId)).toBe('72.63');
    expect(t.ledgerSum()).toBe('0.00');
  });

  it('pay by card while voiding: exactly one wins; a charge of a voided invoice is returned', async () => {
    const t = setup();
    const invoice = await t.finalized();
    const { reached, release } = t.gateFirstCharge();
    const pay = settled(t.service.payBySlug(t.ctx, AUDIT.invoice.pay, invoice.slug!, CARD));
    await reached;
    expect((await t.service.void(t.ctx, AUDIT.invoice.void, invoice.id)).status).toBe('VOIDED');
    release();
    const lost = await pay;
    expect(lost.ok).toBe(false);
    expect((lost as { error: ApiError }).error.code).toBe('INVALID_STATE');
    expect(t.processor.refunds).toHaveLength(1);
    expect(await t.balanceOf(t.walletId)).toBe('0.00');
    expect((await t.service.get(t.ctx, invoice.id)).status).toBe('VOIDED');
  });

  it('two refunds at once: exactly one; a refund the wallet can not cover changes nothing', async () => {
    const t = setup();
    const invoice = await t.finalized('10.00');
    await t.service.payBySlug(t.ctx, AUDIT.invoice.pay, invoice.slug!, CARD);
    expect(await refusalOf(t.service.refund(t.ctx, AUDIT.invoice.refund, invoice.id))).toMatchObject({
      code: 'INSUFFICIENT_FUNDS',
    });
    expect((await t.service.get(t.ctx, invoice.id)).status).toBe('PAID');
    const journalBefore = t.table.items.journal.size;
    expect(journalBefore).toBe(1);
    t.wallet('0.00'); // (unrelated wallet)
    // Fund the wallet by seeding a second paid invoice.
    const more = await t.finalized('20.00');
    await t.service.payBySlug(t.ctx, AUDIT.invoice.pay, more.slug!, CARD);
    const results = await Promise.all([
      settled(t.service.refund(t.ctx, AUDIT.invoice.refund, invoice.id)),
      settled(t.service.refund(t.ctx, AUDIT.invoice.refund, invoice.id)),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect([...t.table.items.journal.values()].filter((r) => r.type === 'INVOICE_REFUND')).toHaveLength(1);
    expect(t.processor.refunds).toHaveLength(1);
    expect(t.ledgerSum()).toBe('0.00');
  });

  it('the payment posting balances to the cent for awkward totals, with net > 0 for every method', () => {
    const head = { id: 'inv_x', organizationId: 'org_x', environment: 'SANDBOX' as const, walletId: 'wal_x' };
    const totals = [
      '1.00',
      '1.01',
      '1.03',
      '1.49',
      '10.35',
      '17.23',
      '99.99',
      '100.01',
      '625.00',
      '625.01',
      '999999999.99',
      '1000000000.00',
    ];
    for (let cents = 100; cents < 3000; cents += 7) totals.push(new Big(cents).div(100).toFixed(2));
    totals.push(new Big('99999.99').times(10_000).toFixed(2)); // quantity 10,000 x 99,999.99
    for (const text of totals) {
      const total = new Big(text);
      for (const method of ['card', 'us_bank_account', 'usdc', 'wallet'] as const) {
        const fees = invoiceFeesOf(method, total);
        expect(fees.net.gt(0), `${method} ${text}`).toBe(true);
        for (const part of [fees.provider, fees.service, fees.net])
          expect(part.eq(part.round(2)), `${method} ${text}`).toBe(true);
        expect(fees.net.plus(fees.provider).plus(fees.service).eq(total)).toBe(true);
        const change = invoicePayment(head, 'txn_x', total, fees, '2026-11-27T10:00:00.000Z');
        expect(() => assertBalanced(change.posting)).not.toThrow();
      }
    }
    // Half-up: card on 17.25: 0.50025 + 0.30 -> 0.80; 0.08625 -> 0.09.
    expect(invoiceFeesOf('card', new Big('17.25'))).toMatchObject({
      provider: new Big('0.80'),
      service: new Big('0.09'),
    });
    // 0.5% of 1.00 = 0.005 -> 0.01 (half-up, not banker's).
    expect(invoiceFeesOf('card', new Big('1.00')).service.toFixed(2)).toBe('0.01');
    expect(invoiceFeesOf('us_bank_account', new Big('1000000000.00')).provider.toFixed(2)).toBe('5.00');
  });
});
