import { beforeAll, describe, expect, it } from 'vitest';
import { setupE2e } from '../fixtures/e2e-setup.js';
import { invoiceSeed } from '../fixtures/invoice-seed.js';
import { expectApiError, expectStatus } from '../fixtures/payments-client.js';

/** Paying an invoice from a wallet: authority, tenancy, what the seller sees of the payer, refunds, races. */
describe('paying an invoice from a wallet: privacy and races', () => {
  const { service, ledger, agents, seller, buyer, other, wallets } = setupE2e({
    organizations: { seller: 'Seller Org', buyer: 'Buyer Org', other: 'Other Org' },
    wallets: { receiving: { organization: 'seller', name: 'Receivables' } },
  });
  let seed: ReturnType<typeof invoiceSeed>;
  let customerId: string;

  beforeAll(async () => {
    seed = invoiceSeed(service);
    customerId = await seed.customer(seller.key);
    // Refunds return the whole total (fees are not returned): the seller holds some margin.
    await ledger.fund(seller.key, wallets.receiving, '1000.00');
  });

  const invoiceOf = (total: string) =>
    seed.finalized({ key: seller.key, walletId: wallets.receiving, customerId, total });
  const payInvoice = (slug: string, key: string, body: Record<string, unknown>) =>
    service.call('POST', `/v1/invoices/pay/${slug}/wallet`, { key, body });

  it("refuses an organization key paying from another organization's wallet (404), moving nothing", async () => {
    const victim = await ledger.fundedWallet(other, '100.00', 'Victim');
    const invoice = await invoiceOf('10.00');

    const response = await payInvoice(invoice.slug, buyer.key, { walletId: victim });

    expectApiError(response, 404, 'WALLET_NOT_FOUND');
    expect(await ledger.balanceOf(other.key, victim)).toBe('100.00000000');
    expect((await seed.get(seller.key, invoice.id)).status).toBe('FINALIZED');
  });

  it('refuses a key without payments:write (403)', async () => {
    const payer = await ledger.fundedWallet(buyer, '100.00', 'Payer');
    const reader = await ledger.createKey(buyer, ['invoices:write', 'invoices:read']);
    const invoice = await invoiceOf('10.00');

    const response = await payInvoice(invoice.slug, reader.key, { walletId: payer });

    expect(response.status).toBe(403);
    expect(await ledger.balanceOf(buyer.key, payer)).toBe('100.00000000');
  });

  it('does not collide idempotency keys of two organizations paying the same invoice', async () => {
    const a = await ledger.fundedWallet(buyer, '100.00', 'A');
    const b = await ledger.fundedWallet(other, '100.00', 'B');
    const invoice = await invoiceOf('10.00');

    const first = await payInvoice(invoice.slug, buyer.key, { walletId: a, idempotencyKey: 'same' });
    const second = await payInvoice(invoice.slug, other.key, { walletId: b, idempotencyKey: 'same' });

    expectStatus(first, 200);
    expectApiError(second, 409, 'INVALID_STATE');
    expect(await ledger.balanceOf(other.key, b)).toBe('100.00000000');
    await agents.expectLedgerBalanced();
  });

  it("the seller's key can not decide the payer's approval, nor see it", async () => {
    const payer = await ledger.createAgent(buyer, 'Supervised');
    await ledger.fund(buyer.key, payer.walletId, '100.00');
    await ledger.createPolicy(buyer.key, { walletId: payer.walletId, requireHumanApproval: true });
    const invoice = await invoiceOf('20.00');
    const queued = expectApiError(
      await payInvoice(invoice.slug, payer.key, { walletId: payer.walletId }),
      202,
      'APPROVAL_REQUIRED',
    );
    const approvalId = queued.details!.approvalId as string;

    const bySeller = await service.call('POST', `/v1/approvals/${approvalId}/approve`, { key: seller.key, body: {} });
    const readBySeller = await service.call('GET', `/v1/approvals/${approvalId}`, { key: seller.key });
    const byAgent = await service.call('POST', `/v1/approvals/${approvalId}/approve`, { key: payer.key, body: {} });

    expect(bySeller.status).toBe(404);
    expect(readBySeller.status).toBe(404);
    expect([403, 404]).toContain(byAgent.status);
    expect((await seed.get(seller.key, invoice.id)).status).toBe('FINALIZED');
    expect(await ledger.balanceOf(buyer.key, payer.walletId)).toBe('100.00000000');
  });

  it("the seller does not see the payer's approval id on the payment (queued or posted)", async () => {
    const payer = await ledger.createAgent(buyer, 'Supervised 2');
    await ledger.fund(buyer.key, payer.walletId, '100.00');
    await ledger.createPolicy(buyer.key, { walletId: payer.walletId, requireHumanApproval: true });
    const invoice = await invoiceOf('21.00');
    const queued = expectApiError(
      await payInvoice(invoice.slug, payer.key, { walletId: payer.walletId }),
      202,
      'APPROVAL_REQUIRED',
    );
    const approvalId = queued.details!.approvalId as string;
    const transactionId = queued.details!.transactionId as string;
    expectStatus(await service.call('POST', `/v1/approvals/${approvalId}/approve`, { key: buyer.key, body: {} }), 200);

    const seen = await service.call('GET', `/v1/payments/${transactionId}`, { key: seller.key });

    expectStatus(seen, 200);
    expect(JSON.stringify(seen.body)).not.toContain(approvalId);
  });

  it("the refund of a wallet-paid invoice shows in the paying wallet's transactions", async () => {
    const payer = await ledger.fundedWallet(buyer, '100.00', 'Visible payer');
    const invoice = await invoiceOf('50.00');
    expectStatus(await payInvoice(invoice.slug, buyer.key, { walletId: payer }), 200);

    const refund = await service.call('POST', `/v1/invoices/${invoice.id}/refund`, { key: seller.key });

    expectStatus(refund, 200);
    expect(await ledger.balanceOf(buyer.key, payer)).toBe('100.00000000');
    const list = await service.call('GET', `/v1/wallets/${payer}/transactions`, { key: buyer.key });
    expectStatus(list, 200);
    // Two movements on the wallet besides its funding: the payment out and the refund in.
    const rows = list.body.data as Record<string, unknown>[];
    expect(
      rows.some((row) => row.id === refund.body.refundTransactionId || JSON.stringify(row).includes('REFUND')),
    ).toBe(true);
  });

  it('refunding into a frozen paying wallet lands (money owed) and the ledger stays balanced', async () => {
    const agent = await ledger.createAgent(buyer, 'To pause');
    await ledger.fund(buyer.key, agent.walletId, '100.00');
    const payer = agent.walletId;
    const invoice = await invoiceOf('30.00');
    expectStatus(await payInvoice(invoice.slug, agent.key, { walletId: payer }), 200);
    expectStatus(await service.call('POST', `/v1/agents/${payer}/pause`, { key: buyer.key, body: {} }), 200);

    const refund = await service.call('POST', `/v1/invoices/${invoice.id}/refund`, { key: seller.key });

    expectStatus(refund, 200);
    expect(await ledger.balanceOf(buyer.key, payer)).toBe('100.00000000');
    await agents.expectLedgerBalanced();
  });

  it('a wallet payment racing a card payment on the same invoice: exactly one pays, the other moves nothing', async () => {
    const payer = await ledger.fundedWallet(buyer, '100.00', 'Racer');
    const invoice = await invoiceOf('25.00');
    const sellerBefore = await ledger.balanceOf(seller.key, wallets.receiving);

    const [byWallet, byCard] = await Promise.all([
      payInvoice(invoice.slug, buyer.key, { walletId: payer }),
      service.call('POST', `/v1/invoices/pay/${invoice.slug}/payments`, {
        body: { type: 'card', number: '4242424242424242', expMonth: 12, expYear: 2030, cvc: '123' },
      }),
    ]);

    const statuses = [byWallet.status, byCard.status];
    expect(
      statuses.filter((status) => status === 200),
      JSON.stringify([byWallet.body, byCard.body]),
    ).toHaveLength(1);
    expect(statuses.every((status) => status < 500)).toBe(true);
    const paid = await seed.get(seller.key, invoice.id);
    expect(paid.status).toBe('PAID');
    const payerAfter = await ledger.balanceOf(buyer.key, payer);
    if (byWallet.status === 200) {
      expect(payerAfter).toBe('75.00000000');
      expect(paid.paymentMethodType).toBe('wallet');
    } else {
      expect(payerAfter).toBe('100.00000000');
      expect(paid.paymentMethodType).toBe('card');
    }
    const sellerAfter = await ledger.balanceOf(seller.key, wallets.receiving);
    // One credit only: 24.94 (wallet, 0.25%) or 23.85 (card: 0.73 + 0.30 provider, 0.13 service -> 1.16).
    expect(['24.94', '23.84']).toContain((Number(sellerAfter) - Number(sellerBefore)).toFixed(2));
    await agents.expectLedgerBalanced();
  });

  it('two concurrent approvals of one queued invoice payment: one posts, the payer is debited once', async () => {
    const payer = await ledger.createAgent(buyer, 'Double approve');
    await ledger.fund(buyer.key, payer.walletId, '100.00');
    await ledger.createPolicy(buyer.key, { walletId: payer.walletId, requireHumanApproval: true });
    const invoice = await invoiceOf('40.00');
    const queued = expectApiError(
      await payInvoice(invoice.slug, payer.key, { walletId: payer.walletId }),
      202,
      'APPROVAL_REQUIRED',
    );
    const approvalId = queued.details!.approvalId as string;
    const approve = () => service.call('POST', `/v1/approvals/${approvalId}/approve`, { key: buyer.key, body: {} });

    const [a, b] = await Promise.all([approve(), approve()]);

    expect(
      [a.status, b.status].every((status) => status < 500),
      JSON.stringify([a.body, b.body]),
    ).toBe(true);
    expect(await ledger.balanceOf(buyer.key, payer.walletId)).toBe('60.00000000');
    expect((await seed.get(seller.key, invoice.id)).status).toBe('PAID');
    await agents.expectLedgerBalanced();
  });

  it('two queued payments of one invoice from two wallets: the second approval fails, nothing moves twice', async () => {
    const make = async (name: string) => {
      const agent = await ledger.createAgent(buyer, name);
      await ledger.fund(buyer.key, agent.walletId, '100.00');
      await ledger.createPolicy(buyer.key, { walletId: agent.walletId, requireHumanApproval: true });
      return agent;
    };
    const [p1, p2] = [await make('Q1'), await make('Q2')];
    const invoice = await invoiceOf('10.00');
    const q1 = expectApiError(
      await payInvoice(invoice.slug, p1.key, { walletId: p1.walletId }),
      202,
      'APPROVAL_REQUIRED',
    );
    const q2 = expectApiError(
      await payInvoice(invoice.slug, p2.key, { walletId: p2.walletId }),
      202,
      'APPROVAL_REQUIRED',
    );
    const approve = (id: string) => service.call('POST', `/v1/approvals/${id}/approve`, { key: buyer.key, body: {} });

    const [a, b] = await Promise.all([
      approve(q1.details!.approvalId as string),
      approve(q2.details!.approvalId as string),
    ]);

    expect([a.status, b.status], JSON.stringify([a.body, b.body])).toEqual([200, 200]);
    expect([a.body.status, b.body.status].sort()).toEqual(['APPROVED', 'FAILED']);
    const balances = [await ledger.balanceOf(buyer.key, p1.walletId), await ledger.balanceOf(buyer.key, p2.walletId)];
    expect(balances.sort()).toEqual(['100.00000000', '90.00000000']);
    await agents.expectLedgerBalanced();
  });

  it("the seller does not see the payer's queued (unapproved) payment, nor its rejection", async () => {
    const payer = await ledger.createAgent(buyer, 'Supervised 3');
    await ledger.fund(buyer.key, payer.walletId, '100.00');
    await ledger.createPolicy(buyer.key, { walletId: payer.walletId, requireHumanApproval: true });
    const invoice = await invoiceOf('22.00');
    const queued = expectApiError(
      await payInvoice(invoice.slug, payer.key, { walletId: payer.walletId }),
      202,
      'APPROVAL_REQUIRED',
    );
    const transactionId = queued.details!.transactionId as string;

    const whileQueued = await service.call('GET', `/v1/payments/${transactionId}`, { key: seller.key });
    expectStatus(
      await service.call('POST', `/v1/approvals/${queued.details!.approvalId as string}/reject`, {
        key: buyer.key,
        body: {},
      }),
      200,
    );
    const afterRejection = await service.call('GET', `/v1/payments/${transactionId}`, { key: seller.key });

    expect(
      { whileQueued: whileQueued.status, afterRejection: afterRejection.status },
      JSON.stringify(afterRejection.body),
    ).toEqual({
      whileQueued: 404,
      afterRejection: 404,
    });
  });
});
