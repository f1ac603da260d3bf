import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import { legsOf } from '../../shared/domain/ledger/journal.js';
import { AUDIT } from '../../shared/domain/audit/actions.js';
import { SYSTEM_ACCOUNTS } from '../../shared/domain/ledger/posting.js';
import { BANK, invoiceWorld } from '../fakes/invoice-world.js';
import { refusalOf } from '../fakes/service-world.js';

const CARD = { type: 'card' as const, number: '4242424242424242', expMonth: 12, expYear: 2030, cvc: '123' };
const DECLINED = { ...CARD, number: '4000000000000002' };
function setup() {
  const { world, clock, store, table, processor, customers, service, walletId, customerId, balanceOf } = invoiceWorld();
  /** The signed sum of every leg posted to a system account. */
  const systemBalance = (account: string) =>
    [...table.items.journal.values()]
      .flatMap((record) => legsOf(record))
      .filter((leg) => leg.account === account)
      .reduce((sum, leg) => sum.plus(leg.amount), new Big(0))
      .toFixed(2);
  const lines = [
    { description: 'Widgets', quantity: 3, unitPrice: '25.00' },
    { description: 'Setup', unitPrice: '0.50' },
  ];
  const draft = () => service.create(world.ctx, AUDIT.invoice.create, { walletId, customerId, lineItems: lines });
  const finalized = async () => service.finalize(world.ctx, AUDIT.invoice.finalize, (await draft()).id);
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
    systemBalance,
    draft,
    finalized,
  };
}

describe('invoice service', () => {
  it('creates a DRAFT with exact lines, finalizes it with sequential numbers, a slug and its hosted URL', async () => {
    const t = setup();
    const invoice = await t.draft();
    expect(invoice).toMatchObject({ status: 'DRAFT', total: '75.50', amountPaid: '0.00', number: null, slug: null });
    expect(invoice.lineItems[1]).toEqual({ description: 'Setup', quantity: 1, unitPrice: '0.50', amount: '0.50' });
    const first = await t.service.finalize(t.ctx, AUDIT.invoice.finalize, invoice.id);
    expect(first).toMatchObject({ status: 'FINALIZED', number: 'INV-000001' });
    expect(first.slug).toMatch(/^[A-Za-z0-9]{24}$/);
    expect(first.hostedUrl).toBe(`https://pay.example/hosted/invoices/${first.slug}`);
    expect((await t.finalized()).number).toBe('INV-000002');
    expect(await refusalOf(t.service.finalize(t.ctx, AUDIT.invoice.finalize, invoice.id))).toMatchObject({
      code: 'INVALID_STATE',
      details: { status: 'FINALIZED' },
    });
    expect(t.table.events.map((e) => e.type)).toEqual([
      'invoice.created',
      'invoice.finalized',
      'invoice.created',
      'invoice.finalized',
    ]);
    expect(t.table.events[0]!.data).not.toHaveProperty('organizationId');
    expect(await t.service.checkout(t.ctx, AUDIT.invoice.checkout, invoice.id)).toEqual({
      url: `https://pay.example/hosted/invoices/${first.slug}/checkout`,
    });
  });

  it('refuses a frozen wallet, a wallet or customer it can not see, and lets an agent key see only its own', async () => {
    const t = setup();
    const frozen = t.wallet('0.00', { status: 'FROZEN' });
    const other = t.wallet('0.00', {}, { organizationId: 'org_other', environment: 'SANDBOX' });
    const input = { customerId: t.customerId, lineItems: [{ description: 'x', unitPrice: '5.00' }] };
    expect(
      await refusalOf(t.service.create(t.ctx, AUDIT.invoice.create, { ...input, walletId: frozen })),
    ).toMatchObject({ code: 'WALLET_FROZEN' });
    expect(await refusalOf(t.service.create(t.ctx, AUDIT.invoice.create, { ...input, walletId: other }))).toMatchObject(
      { code: 'WALLET_NOT_FOUND' },
    );
    expect(
      await refusalOf(
        t.service.create(t.ctx, AUDIT.invoice.create, { ...input, walletId: t.walletId, customerId: 'cus_nope' }),
      ),
    ).toMatchObject({ code: 'CUSTOMER_NOT_FOUND' });

    const invoice = await t.draft();
    const agentWallet = t.wallet('0.00');
    const agent = t.agentCtx(agentWallet);
    expect(await refusalOf(t.service.get(agent, invoice.id))).toMatchObject({ code: 'INVOICE_NOT_FOUND' });
    expect(
      await refusalOf(t.service.create(agent, AUDIT.invoice.create, { ...input, walletId: t.walletId })),
    ).toMatchObject({ code: 'WALLET_NOT_FOUND' });
    const agentCustomer = t.customers.addCustomer(t.scope.organizationId, [], agentWallet);
    const own = await t.service.create(agent, AUDIT.invoice.create, {
      ...input,
      walletId: agentWallet,
      customerId: agentCustomer,
    });
    expect((await t.service.list(agent, {}, { limit: 10 })).items.map((i) => i.id)).toEqual([own.id]);
    expect((await t.service.list(t.ctx, {}, { limit: 10 })).items.map((i) => i.id).sort()).toEqual(
      [own.id, invoice.id].sort(),
    );
    expect(await refusalOf(t.service.list(agent, { walletId: t.walletId }, { limit: 10 }))).toMatchObject({
      code: 'WALLET_NOT_FOUND',
    });

    const stranger = { ...t.ctx, principal: { ...t.ctx.principal, organizationId: 'org_other' } };
    expect(await refusalOf(t.service.get(stranger, invoice.id))).toMatchObject({ code: 'INVOICE_NOT_FOUND' });
    const live = { ...t.ctx, principal: { ...t.ctx.principal, environment: 'PRODUCTION' as const } };
    expect(await refusalOf(t.service.get(live, invoice.id))).toMatchObject({ code: 'ENVIRONMENT_MISMATCH' });
  });

  it('pays by card through the public route: PAID, the wallet gets total - fees, acc_FEES the fees; a second payment is refused', async () => {
    const t = setup();
    const invoice = await t.finalized();
    const paid = await t.service.payBySlug(t.ctx, AUDIT.invoice.pay, invoice.slug!, CARD);
    expect(paid).toMatchObject({ status: 'PAID', amountPaid: '75.50', merchantName: 'Acme Robotics' });
    const stored = await t.service.get(t.ctx, invoice.id);
    expect(stored).toMatchObject({
      status: 'PAID',
      paymentMethodType: 'card',
      fees: { provider: '2.49', service: '0.38' },
      netAmount: '72.63',
      paidAt: '2026-11-27T10:00:00.000Z',
    });
    expect(await t.balanceOf(t.walletId)).toBe('72.63');
    expect(t.systemBalance(SYSTEM_ACCOUNTS.fees)).toBe('2.87');
    expect(t.systemBalance(SYSTEM_ACCOUNTS.customerFunds)).toBe('-75.50');
    expect(await refusalOf(t.service.payBySlug(t.ctx, AUDIT.invoice.pay, invoice.slug!, CARD))).toMatchObject({
      code: 'INVALID_STATE',
    });
    expect(await refusalOf(t.service.void(t.ctx, AUDIT.invoice.void, invoice.id))).toMatchObject({
      code: 'INVALID_STATE',
    });
    expect(t.table.events.at(-1)!.type).toBe('invoice.paid');
  });

  it('returns the charge of a payment that loses the race to another (the state condition at commit)', async () => {
    const t = setup();
    const invoice = await t.finalized();
    const stale = await t.store.getInvoice(invoice.id);
    await t.service.payBySlug(t.ctx, AUDIT.invoice.pay, invoice.slug!, CARD);
    const method = { type: 'card' as const, brand: 'visa', last4: '4242', processorToken: 'card:4242424242424242' };
    expect(
      await refusalOf(
        t.service.chargeInvoice(stale!, method, AUDIT.invoice.pay, { actor: t.ctx.actor, reference: 'ref_2' }),
      ),
    ).toMatchObject({ code: 'INVALID_STATE' });
    expect(t.processor.refunds).toEqual([expect.objectContaining({ amount: '75.50', reference: 'ref_2:return' })]);
    expect(await t.balanceOf(t.walletId)).toBe('72.63');
  });

  it('answers a declined card 402 PAYMENT_DECLINED, leaves the invoice FINALIZED, emits and audits invoice.payment_failed', async () => {
    const t = setup();
    const invoice = await t.finalized();
    expect(await refusalOf(t.service.payBySlug(t.ctx, AUDIT.invoice.pay, invoice.slug!, DECLINED))).toEqual({
      code: 'PAYMENT_DECLINED',
      details: { declineCode: 'card_declined' },
    });
    expect((await t.service.get(t.ctx, invoice.id)).status).toBe('FINALIZED');
    expect(t.table.events.at(-1)!.type).toBe('invoice.payment_failed');
    expect(t.table.audit.at(-1)).toMatchObject({ action: AUDIT.invoice.paymentFailed, resourceId: invoice.id });
    expect(JSON.stringify([t.table.audit, t.table.events])).not.toContain('4000000000000002');
    expect(await t.balanceOf(t.walletId)).toBe('0.00');
    // Then a good card pays it.
    expect((await t.service.payBySlug(t.ctx, AUDIT.invoice.pay, invoice.slug!, CARD)).status).toBe('PAID');
  });

  it('records a bank debit as pending, pays it when it settles, or clears it when it fails', async () => {
    const t = setup();
    const invoice = await t.finalized();
    const pending = await t.service.payBySlug(t.ctx, AUDIT.invoice.pay, invoice.slug!, BANK);
    expect(pending).toMatchObject({
      status: 'FINALIZED',
      pendingPayment: { paymentMethodType: 'us_bank_account', last4: '6789' },
    });
    expect(await refusalOf(t.service.void(t.ctx, AUDIT.invoice.void, invoice.id))).toMatchObject({
      code: 'INVALID_STATE',
    });
    expect(await refusalOf(t.service.payBySlug(t.ctx, AUDIT.invoice.pay, invoice.slug!, CARD))).toMatchObject({
      code: 'INVALID_STATE',
    });
    const paid = await t.service.settlePendingPayment(invoice.id);
    expect(paid).toMatchObject({
      status: 'PAID',
      paymentMethodType: 'us_bank_account',
      fees: { provider: '0.60', service: '0.19' },
    });
    expect(paid.pendingPayment).toBeUndefined();
    expect(await t.balanceOf(t.walletId)).toBe('74.71');
    // Settling again changes nothing.
    expect((await t.service.settlePendingPayment(invoice.id)).status).toBe('PAID');
    expect(await t.balanceOf(t.walletId)).toBe('74.71');

    const failing = await t.finalized();
    await t.service.payBySlug(t.ctx, AUDIT.invoice.pay, failing.slug!, { ...BANK, accountNumber: '000123450002' });
    const failed = await t.service.settlePendingPayment(failing.id);
    expect(failed).toMatchObject({ status: 'FINALIZED' });
    expect(failed.pendingPayment).toBeUndefined();
    expect(t.table.events.at(-1)!.type).toBe('invoice.payment_failed');
    expect((await t.service.void(t.ctx, AUDIT.invoice.void, failing.id)).status).toBe('VOIDED');
  });

  it('refunds a PAID invoice: the wallet debited the total (INSUFFICIENT_FUNDS when short), the charge returned', async () => {
    const t = setup();
    const invoice = await t.finalized();
    await t.service.payBySlug(t.ctx, AUDIT.invoice.pay, invoice.slug!, CARD);
    expect(await refusalOf(t.service.refund(t.ctx, AUDIT.invoice.refund, invoice.id))).toMatchObject({
      code: 'INSUFFICIENT_FUNDS',
    });
    expect((await t.service.get(t.ctx, invoice.id)).status).toBe('PAID');
    expect(t.processor.refunds).toEqual([]);
    t.table.addWallet({
      ...(await t.store.getWallet(t.walletId))!,
      balance: (await t.store.getWallet(t.walletId))!.balance.plus(10),
    });
    const refunded = await t.service.refund(t.ctx, AUDIT.invoice.refund, invoice.id);
    expect(refunded).toMatchObject({ status: 'REFUNDED', refundedAt: '2026-11-27T10:00:00.000Z' });
    expect(await t.balanceOf(t.walletId)).toBe('7.13');
    expect(t.processor.refunds).toEqual([
      expect.objectContaining({ amount: '75.50', reference: `${invoice.id}:refund` }),
    ]);
    expect(await refusalOf(t.service.refund(t.ctx, AUDIT.invoice.refund, invoice.id))).toMatchObject({
      code: 'INVALID_STATE',
    });
    expect(await refusalOf(t.service.refund(t.ctx, AUDIT.invoice.refund, (await t.finalized()).id))).toMatchObject({
      code: 'INVALID_STATE',
    });
  });

  it('voids only a FINALIZED invoice', async () => {
    const t = setup();
    const draft = await t.draft();
    expect(await refusalOf(t.service.void(t.ctx, AUDIT.invoice.void, draft.id))).toMatchObject({
      code: 'INVALID_STATE',
      details: { status: 'DRAFT' },
    });
    expect(await refusalOf(t.service.checkout(t.ctx, AUDIT.invoice.checkout, draft.id))).toMatchObject({
      code: 'INVALID_STATE',
    });
    const invoice = await t.finalized();
    expect((await t.service.void(t.ctx, AUDIT.invoice.void, invoice.id)).status).toBe('VOIDED');
    expect(await refusalOf(t.service.void(t.ctx, AUDIT.invoice.void, invoice.id))).toMatchObject({
      code: 'INVALID_STATE',
    });
    expect(await refusalOf(t.service.payBySlug(t.ctx, AUDIT.invoice.pay, invoice.slug!, CARD))).toMatchObject({
      code: 'INVALID_STATE',
    });
    expect(await refusalOf(t.service.checkoutBySlug(t.ctx, AUDIT.invoice.checkout, invoice.slug!))).toMatchObject({
      code: 'INVALID_STATE',
    });
    expect(await refusalOf(t.service.getPayable('unknown'))).toMatchObject({ code: 'INVOICE_NOT_FOUND' });
  });

  it('charges a customer once per idempotency key, a decline included; other parameters are IDEMPOTENCY_KEY_REUSE', async () => {
    const t = setup();
    const input = { walletId: t.walletId, customerId: t.customerId, amount: '100', description: 'October' };
    const first = await t.service.charge(t.ctx, AUDIT.invoice.charge, input, 'key-1');
    expect(first).toMatchObject({
      status: 201,
      replayed: false,
      body: { status: 'PAID', total: '100.00', netAmount: '96.30' },
    });
    const again = await t.service.charge(t.ctx, AUDIT.invoice.charge, { ...input, amount: '100.00' }, 'key-1');
    expect(again).toEqual({ ...first, replayed: true });
    expect(await t.balanceOf(t.walletId)).toBe('96.30');
    expect(
      await refusalOf(t.service.charge(t.ctx, AUDIT.invoice.charge, { ...input, amount: '99' }, 'key-1')),
    ).toMatchObject({
      code: 'IDEMPOTENCY_KEY_REUSE',
    });

    const declining = t.customers.addCustomer(t.scope.organizationId, ['4000000000000002']);
    const declined = await t.service.charge(t.ctx, AUDIT.invoice.charge, { ...input, customerId: declining }, 'key-2');
    expect(declined).toMatchObject({
      status: 402,
      body: {
        error: {
          code: 'PAYMENT_DECLINED',
          details: { declineCode: 'card_declined', invoiceId: expect.stringMatching(/^inv_/) },
        },
      },
    });
    const invoiceId = (declined.body as { error: { details: { invoiceId: string } } }).error.details.invoiceId;
    expect((await t.service.get(t.ctx, invoiceId)).status).toBe('FINALIZED');
    expect(await t.service.charge(t.ctx, AUDIT.invoice.charge, { ...input, customerId: declining }, 'key-2')).toEqual({
      ...declined,
      replayed: true,
    });
    // Without a key: the refusal is thrown.
    expect(
      await refusalOf(t.service.charge(t.ctx, AUDIT.invoice.charge, { ...input, customerId: declining })),
    ).toMatchObject({
      code: 'PAYMENT_DECLINED',
    });
    const none = t.customers.addCustomer(t.scope.organizationId, []);
    expect(
      await refusalOf(t.service.charge(t.ctx, AUDIT.invoice.charge, { ...input, customerId: none })),
    ).toMatchObject({
      code: 'PAYMENT_METHOD_NOT_FOUND',
    });
    expect(await refusalOf(t.service.charge(t.ctx, AUDIT.invoice.charge, { ...input, amount: '0.99' }))).toMatchObject({
      code: 'INVALID_AMOUNT',
    });
  });

  it('resumes a keyed charge whose first request died after paying: same invoice, no second charge', async () => {
    const t = setup();
    const input = { walletId: t.walletId, customerId: t.customerId, amount: '10.00', description: 'Once' };
    const realCommit = t.store.commit;
    let dropAnswer = true;
    t.store.commit = async (changes) => {
      if (dropAnswer && changes.some((c) => c.type === 'idempotency')) {
        dropAnswer = false;
        await realCommit(changes.filter((c) => c.type !== 'idempotency'));
        throw new Error('the function died');
      }
      return realCommit(changes);
    };
    // The commit failed after recording the payment: the invoice is read back (this charge paid it), not refunded.
    const first = await t.service.charge(t.ctx, AUDIT.invoice.charge, input, 'key-crash');
    expect(first).toMatchObject({ status: 201, body: { status: 'PAID' } });
    const retry = await t.service.charge(t.ctx, AUDIT.invoice.charge, input, 'key-crash');
    expect(retry).toMatchObject({ status: 201, body: first.body, replayed: true });
    expect(t.processor.refunds).toEqual([]);
    expect((await t.service.list(t.ctx, {}, { limit: 10 })).items).toHaveLength(1);
    expect(t.processor.charges.size).toBe(1);
    expect(await t.balanceOf(t.walletId)).toBe('9.36');
  });

  it('shows the customer no wallet, customer id, metadata or fees', async () => {
    const t = setup();
    const invoice = await t.service.create(t.ctx, AUDIT.invoice.create, {
      walletId: t.walletId,
      customerId: t.customerId,
      lineItems: [{ description: 'x', unitPrice: '5.00' }],
      metadata: { secret: 'internal' },
      memo: 'Thanks',
    });
    const { slug } = await t.service.finalize(t.ctx, AUDIT.invoice.finalize, invoice.id);
    const payable = await t.service.getPayable(slug!);
    expect(payable).toMatchObject({ merchantName: 'Acme Robotics', customerName: 'Customer 1', memo: 'Thanks' });
    expect(payable.checkoutUrl).toBe(`https://pay.example/hosted/invoices/${slug}/checkout`);
    expect(await t.service.checkoutBySlug(t.ctx, AUDIT.invoice.checkout, slug!)).toEqual({ url: payable.checkoutUrl });
  });
});
