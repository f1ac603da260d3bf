import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { transactionKeys } from '../../shared/persistence/entities/transaction.js';
import { auditEntriesOf } from '../fixtures/agents-client.js';
import { setupE2e } from '../fixtures/e2e-setup.js';
import { eventually } from '../fixtures/eventually.js';
import { invoiceSeed } from '../fixtures/invoice-seed.js';
import { expectApiError, expectStatus } from '../fixtures/payments-client.js';

/** 0.25% of 123.45 is 0.308625: 0.31 half-up to the cent, so the seller nets 123.14. */
const TOTAL = '123.45';
const FEE = '0.31';
const NET = '123.14';

describe('paying an invoice from a wallet: POST /v1/invoices/pay/{slug}/wallet', () => {
  const { service, ledger, seller, buyer, wallets } = setupE2e({
    organizations: { seller: 'Seller Org', buyer: 'Buyer Org' },
    wallets: { receiving: { organization: 'seller', name: 'Receivables' } },
  });
  let seed: ReturnType<typeof invoiceSeed>;
  let customerId: string;
  /** The buyer's agent (a wallet-scoped key) with 1,000.00. */
  let agent: { walletId: string; key: string };

  beforeAll(async () => {
    seed = invoiceSeed(service);
    customerId = await seed.customer(seller.key);
    agent = await ledger.createAgent(buyer, 'Procurement agent');
    await ledger.fund(buyer.key, agent.walletId, '1000.00');
  });

  const invoiceOf = (total = TOTAL) =>
    seed.finalized({ key: seller.key, walletId: wallets.receiving, customerId, total });
  const payInvoice = (slug: string, key: string, body: Record<string, unknown>) =>
    service.call('POST', `/v1/invoices/pay/${slug}/wallet`, { key, body });
  const balance = (key: string, walletId: string) => ledger.balanceOf(key, walletId);
  const feeLegOf = async (transactionId: string) => {
    const { Item } = await service.table.client.send(
      new GetCommand({ TableName: service.table.tableName, Key: transactionKeys.primary(transactionId) }),
    );
    // The journal stores non-plain legs as {a: account, b: bucket, d: amount}.
    return (Item?.legs as { a: string; d: unknown }[] | undefined)?.find((leg) => leg.a === 'acc_FEES');
  };

  it("posts one payment: the payer pays the total, the invoice's wallet nets total - fee, acc_FEES the fee, and the invoice is PAID", async () => {
    // Prepare
    const invoice = await invoiceOf();
    const payerBefore = await balance(buyer.key, agent.walletId);
    const payeeBefore = await balance(seller.key, wallets.receiving);

    // Act
    const response = await payInvoice(invoice.slug, agent.key, { walletId: agent.walletId, idempotencyKey: 'inv-1' });

    // Assess
    expectStatus(response, 200);
    expect(response.body).toMatchObject({
      object: 'payment',
      type: 'PAYMENT',
      from: agent.walletId,
      to: wallets.receiving,
      amount: TOTAL,
      fee: FEE,
      status: 'POSTED',
      invoiceId: invoice.id,
    });
    expect(Number(await balance(buyer.key, agent.walletId))).toBeCloseTo(Number(payerBefore) - Number(TOTAL), 8);
    expect(await balance(seller.key, wallets.receiving)).toBe(
      (Number(payeeBefore) + Number(NET)).toFixed(8), // exact in these magnitudes
    );
    expect(await balance(buyer.key, agent.walletId)).toBe('876.55000000');
    expect(String((await feeLegOf(response.body.id))?.d)).toBe(String(Number(FEE)));
    const paid = await seed.get(seller.key, invoice.id);
    expect(paid).toMatchObject({
      status: 'PAID',
      amountPaid: TOTAL,
      paymentMethodType: 'wallet',
      fees: { provider: '0.00', service: FEE },
      netAmount: NET,
    });
    expect(paid.paidAt).toBe(response.body.postedAt);
    await ledger.expectLedgerBalanced();
  });

  it('shows the payment in GET /v1/payments of both organizations, with the fee; the payer audited payment.created, the seller invoice.pay and invoice.paid', async () => {
    // Prepare
    const invoice = await invoiceOf('40.00');

    // Act
    const response = await payInvoice(invoice.slug, agent.key, { walletId: agent.walletId });
    expectStatus(response, 200);
    const id = response.body.id as string;

    // Assess
    for (const org of [buyer, seller]) {
      await eventually(async () => {
        const list = await service.call('GET', '/v1/payments', { key: org.key });
        expectStatus(list, 200);
        expect((list.body.data as { id: string }[]).find((payment) => payment.id === id)).toMatchObject({
          fee: '0.10',
          invoiceId: invoice.id,
        });
      });
    }
    await eventually(async () => {
      const payerAudit = await auditEntriesOf(service, buyer.organizationId);
      expect(payerAudit.some((entry) => entry.action === 'payment.created' && entry.resourceId === id)).toBe(true);
    });
    const sellerAudit = await auditEntriesOf(service, seller.organizationId);
    const invoiceEntry = sellerAudit.find((entry) => entry.action === 'invoice.pay' && entry.resourceId === invoice.id);
    expect(invoiceEntry).toMatchObject({ metadata: { transactionId: id, payerWalletId: agent.walletId } });
    // Another organization's key ids never show in the seller's log.
    expect(JSON.stringify(sellerAudit)).not.toContain(agent.key.slice(-8));
    await eventually(async () => {
      const events = await service.call('GET', '/v1/events?type=invoice.paid', { key: seller.key });
      expectStatus(events, 200);
      expect(
        (events.body.data as { data: { id: string; status: string } }[]).map((event) => event.data),
      ).toContainEqual(expect.objectContaining({ id: invoice.id, status: 'PAID' }));
    });
  });

  it('answers a replay with the same key with the first answer, and refuses the key for another invoice', async () => {
    // Prepare
    const invoice = await invoiceOf('10.00');
    const first = await payInvoice(invoice.slug, agent.key, { walletId: agent.walletId, idempotencyKey: 'inv-replay' });
    expectStatus(first, 200);
    const after = await balance(buyer.key, agent.walletId);

    // Act
    const replay = await payInvoice(invoice.slug, agent.key, {
      walletId: agent.walletId,
      idempotencyKey: 'inv-replay',
    });
    const other = await invoiceOf('11.00');
    const reuse = await payInvoice(other.slug, agent.key, { walletId: agent.walletId, idempotencyKey: 'inv-replay' });

    // Assess
    expectStatus(replay, 200);
    expect(replay.body).toEqual(first.body);
    expect(await balance(buyer.key, agent.walletId)).toBe(after);
    expectApiError(reuse, 409, 'IDEMPOTENCY_KEY_REUSE');
    expect((await seed.get(seller.key, other.id)).status).toBe('FINALIZED');
  });

  it('refuses an invoice that is not FINALIZED (409 INVALID_STATE), an unknown slug (404), its own receiving wallet (400 SELF_PAYMENT)', async () => {
    // Prepare
    const invoice = await invoiceOf('12.00');
    expectStatus(await payInvoice(invoice.slug, agent.key, { walletId: agent.walletId }), 200);
    const voided = await invoiceOf('13.00');
    await seed.voidInvoice(seller.key, voided.id);
    const own = await invoiceOf('14.00');

    // Act
    const again = await payInvoice(invoice.slug, buyer.key, { walletId: agent.walletId });
    const onVoided = await payInvoice(voided.slug, agent.key, { walletId: agent.walletId });
    const unknown = await payInvoice('no-such-slug-aaaaaaaaaaaa', agent.key, { walletId: agent.walletId });
    const self = await payInvoice(own.slug, seller.key, { walletId: wallets.receiving });

    // Assess
    expectApiError(again, 409, 'INVALID_STATE');
    expectApiError(onVoided, 409, 'INVALID_STATE');
    expectApiError(unknown, 404, 'INVOICE_NOT_FOUND');
    expectApiError(self, 400, 'SELF_PAYMENT');
    expect((await seed.get(seller.key, own.id)).status).toBe('FINALIZED');
  });

  it('answers 404 WALLET_NOT_FOUND to an agent key naming a wallet that is not its own', async () => {
    // Prepare
    const invoice = await invoiceOf('15.00');
    const buyersOther = await ledger.fundedWallet(buyer, '100.00', 'Treasury');

    // Act
    const response = await payInvoice(invoice.slug, agent.key, { walletId: buyersOther });

    // Assess
    expectApiError(response, 404, 'WALLET_NOT_FOUND');
    expect(await balance(buyer.key, buyersOther)).toBe('100.00000000');
    expect((await seed.get(seller.key, invoice.id)).status).toBe('FINALIZED');
  });

  it('refunds a wallet-paid invoice into the paying wallet (the seller pays the total back; the fee is not returned); the payment itself can not be reversed', async () => {
    // Prepare
    const invoice = await invoiceOf('50.00');
    const paid = await payInvoice(invoice.slug, agent.key, { walletId: agent.walletId });
    expectStatus(paid, 200);
    const payerBefore = await balance(buyer.key, agent.walletId);
    const payeeBefore = await balance(seller.key, wallets.receiving);

    // Act
    const reversal = await service.call('POST', `/v1/payments/${paid.body.id}/reverse`, { key: seller.key, body: {} });
    const refund = await service.call('POST', `/v1/invoices/${invoice.id}/refund`, { key: seller.key });

    // Assess
    expectApiError(reversal, 422, 'REVERSAL_NOT_ALLOWED');
    expectStatus(refund, 200);
    expect(refund.body).toMatchObject({ status: 'REFUNDED' });
    expect(await balance(buyer.key, agent.walletId)).toBe((Number(payerBefore) + 50).toFixed(8));
    expect(await balance(seller.key, wallets.receiving)).toBe((Number(payeeBefore) - 50).toFixed(8));
    await ledger.expectLedgerBalanced();
  });

  it("counts the payment in the payer's daily limit", async () => {
    // Prepare
    const payer = await ledger.createAgent(buyer, 'Limited agent');
    await ledger.fund(buyer.key, payer.walletId, '500.00');
    await ledger.createPolicy(buyer.key, { walletId: payer.walletId, dailyLimit: '150.00' });
    const invoice = await invoiceOf('100.00');
    expectStatus(await payInvoice(invoice.slug, payer.key, { walletId: payer.walletId }), 200);

    // Act
    const over = await ledger.pay(payer.key, { from: payer.walletId, to: wallets.receiving, amount: '60.00' });

    // Assess
    const error = expectApiError(over, 403, 'POLICY_DENIED');
    expect(error.details).toMatchObject({ rule: 'dailyLimit' });
  });

  describe('with a payer policy requiring approval', () => {
    async function queued(total: string) {
      const payer = await ledger.createAgent(buyer, 'Supervised agent');
      await ledger.fund(buyer.key, payer.walletId, '500.00');
      await ledger.createPolicy(buyer.key, { walletId: payer.walletId, requireHumanApproval: true });
      const invoice = await invoiceOf(total);
      const key = `q-${invoice.id}`;
      const response = await payInvoice(invoice.slug, payer.key, { walletId: payer.walletId, idempotencyKey: key });
      const error = expectApiError(response, 202, 'APPROVAL_REQUIRED');
      return { payer, invoice, key, approvalId: error.details!.approvalId as string, response };
    }
    const approve = (approvalId: string) =>
      service.call('POST', `/v1/approvals/${approvalId}/approve`, { key: buyer.key, body: {} });

    it('answers 202 and leaves the invoice FINALIZED; the approval posts the payment and the invoice becomes PAID', async () => {
      // Prepare
      const { payer, invoice, key, approvalId, response } = await queued('200.00');
      expect((await seed.get(seller.key, invoice.id)).status).toBe('FINALIZED');
      expect(await balance(buyer.key, payer.walletId)).toBe('500.00000000');
      const payeeBefore = await balance(seller.key, wallets.receiving);
      const replay = await payInvoice(invoice.slug, payer.key, { walletId: payer.walletId, idempotencyKey: key });
      expect(replay.status).toBe(202);
      expect(replay.body).toEqual(response.body);

      // Act
      const decided = await approve(approvalId);

      // Assess
      expectStatus(decided, 200);
      expect(decided.body).toMatchObject({ status: 'APPROVED' });
      const paid = await seed.get(seller.key, invoice.id);
      expect(paid).toMatchObject({
        status: 'PAID',
        amountPaid: '200.00',
        fees: { service: '0.50' },
        netAmount: '199.50',
      });
      const payment = await ledger.getPayment(buyer.key, response.body.error.details.transactionId as string);
      expect(payment.body).toMatchObject({ status: 'POSTED', fee: '0.50', invoiceId: invoice.id, approvalId });
      expect(await balance(buyer.key, payer.walletId)).toBe('300.00000000');
      expect(await balance(seller.key, wallets.receiving)).toBe((Number(payeeBefore) + 199.5).toFixed(8));
      await ledger.expectLedgerBalanced();
    });

    it('fails the approval (INVALID_STATE) and moves nothing when the invoice was voided meanwhile', async () => {
      // Prepare
      const { payer, invoice, approvalId } = await queued('30.00');
      await seed.voidInvoice(seller.key, invoice.id);
      const payeeBefore = await balance(seller.key, wallets.receiving);

      // Act
      const decided = await approve(approvalId);

      // Assess
      expectStatus(decided, 200);
      expect(decided.body).toMatchObject({ status: 'FAILED', failureCode: 'INVALID_STATE' });
      expect((await seed.get(seller.key, invoice.id)).status).toBe('VOIDED');
      expect(await balance(buyer.key, payer.walletId)).toBe('500.00000000');
      expect(await balance(seller.key, wallets.receiving)).toBe(payeeBefore);
      const payments = await service.call('GET', `/v1/payments?walletId=${payer.walletId}`, { key: buyer.key });
      expect(payments.body.data).toEqual([expect.objectContaining({ status: 'FAILED', failureCode: 'INVALID_STATE' })]);
      await ledger.expectLedgerBalanced();
    });
  });
});
