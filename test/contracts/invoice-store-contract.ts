import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import { newId } from '../../shared/domain/ids.js';
import { invoiceFeesOf } from '../../shared/domain/invoices/invoice-fees.js';
import { invoicePayment, invoiceRefund } from '../../shared/domain/invoices/invoice-postings.js';
import type { InvoiceStore } from '../../shared/domain/invoices/ports.js';
import type { Invoice } from '../../shared/domain/invoices/types.js';
import type { Wallet } from '../../shared/domain/types.js';
import { at, collectIds, organizationScope, refusal, walletOf } from './money-fixtures.js';

/** A store under the contract, and how the test seeds what other areas write (wallets, with balances). */
export interface InvoiceStoreHarness {
  store: InvoiceStore;
  addWallet(wallet: Wallet): Promise<void>;
}

function invoiceOf(wallet: Wallet, minutes: number, overrides: Partial<Invoice> = {}): Invoice {
  return {
    id: newId('invoice'),
    organizationId: wallet.organizationId,
    environment: wallet.environment,
    walletId: wallet.id,
    customerId: 'cus_contract1',
    status: 'DRAFT',
    currency: 'USD',
    lineItems: [
      { description: 'Widgets', quantity: 3, unitPrice: '25.00', amount: '75.00' },
      { description: 'Setup', quantity: 1, unitPrice: '0.50', amount: '0.50' },
    ],
    total: '75.50',
    amountPaid: '0.00',
    metadata: { order: 42, tags: ['a'] },
    number: null,
    slug: null,
    createdAt: at(minutes),
    ...overrides,
  };
}

/**
 * What the invoice service relies on from its store (shared/domain/invoices/ports.ts), run against
 * the in-memory fake (test/unit) and the DynamoDB store (test/integration).
 */
export function describeInvoiceStoreContract(name: string, makeStore: () => Promise<InvoiceStoreHarness>) {
  describe(`InvoiceStore contract: ${name}`, () => {
    async function oneWallet(balance = '0.00') {
      const h = await makeStore();
      const scope = organizationScope();
      const wallet = walletOf(scope, balance);
      await h.addWallet(wallet);
      return { ...h, scope, wallet };
    }

    async function finalized(store: InvoiceStore, invoice: Invoice, sequence: number) {
      const slug = newId('invoice').slice(4);
      await store.commit([{ type: 'putInvoice', invoice }]);
      await store.commit([
        {
          type: 'finalizeInvoice',
          invoiceId: invoice.id,
          organizationId: invoice.organizationId,
          environment: invoice.environment,
          sequence,
          number: `INV-${sequence}`,
          slug,
          finalizedAt: at(30),
        },
      ]);
      return slug;
    }

    it('reads an invoice back as written (lines, metadata), and finalizes it once with its number and slug', async () => {
      const { store, scope, wallet } = await oneWallet();
      const invoice = invoiceOf(wallet, 1);
      expect(await store.lastInvoiceSequence(scope)).toBe(0);
      const slug = await finalized(store, invoice, 1);
      expect(await store.getInvoice(invoice.id)).toEqual({
        ...invoice,
        status: 'FINALIZED',
        number: 'INV-1',
        slug,
        finalizedAt: at(30),
      });
      expect((await store.getInvoiceBySlug(slug))?.id).toBe(invoice.id);
      expect(await store.getInvoiceBySlug('nothing-here')).toBeUndefined();
      expect(await store.getInvoice(newId('invoice'))).toBeUndefined();
      expect(await store.lastInvoiceSequence(scope)).toBe(1);

      // A second finalize: the state condition refuses it, and nothing (counter, slug) moves.
      await expect(
        store.commit([
          {
            type: 'finalizeInvoice',
            invoiceId: invoice.id,
            ...scope,
            sequence: 2,
            number: 'INV-2',
            slug: 'another',
            finalizedAt: at(31),
          },
        ]),
      ).rejects.toMatchObject(refusal('INVALID_STATE', { status: 'FINALIZED' }));
      expect(await store.lastInvoiceSequence(scope)).toBe(1);
      expect(await store.getInvoiceBySlug('another')).toBeUndefined();
    });

    it('numbers invoices of an organization environment in sequence: a stale sequence is CONCURRENT_UPDATE', async () => {
      const { store, scope, wallet } = await oneWallet();
      await finalized(store, invoiceOf(wallet, 1), 1);
      const second = invoiceOf(wallet, 2);
      await store.commit([{ type: 'putInvoice', invoice: second }]);
      const stale = {
        type: 'finalizeInvoice' as const,
        invoiceId: second.id,
        ...scope,
        sequence: 1,
        number: 'INV-1',
        slug: newId('invoice').slice(4),
        finalizedAt: at(3),
      };
      await expect(store.commit([stale])).rejects.toMatchObject(refusal('CONCURRENT_UPDATE'));
      expect((await store.getInvoice(second.id))?.status).toBe('DRAFT');
      await store.commit([{ ...stale, sequence: 2, number: 'INV-2' }]);
      expect(await store.lastInvoiceSequence(scope)).toBe(2);
      // Another organization counts on its own.
      expect(await store.lastInvoiceSequence(organizationScope())).toBe(0);
    });

    it('pays a FINALIZED invoice once, with its posting in the same transaction; a second payment changes nothing', async () => {
      const { store, wallet } = await oneWallet();
      const invoice = invoiceOf(wallet, 1);
      await finalized(store, invoice, 1);
      const total = new Big(invoice.total);
      const fees = invoiceFeesOf('card', total);
      const pay = (transactionId: string) =>
        store.commit([
          invoicePayment(invoice, transactionId, total, fees, at(40)),
          {
            type: 'transitionInvoice',
            invoiceId: invoice.id,
            trigger: 'pay',
            set: { amountPaid: invoice.total, paidAt: at(40), paymentMethodType: 'card', netAmount: '72.63' },
            pending: 'none',
          },
        ]);
      await pay(newId('transaction'));
      expect(await store.getInvoice(invoice.id)).toMatchObject({ status: 'PAID', amountPaid: '75.50', paidAt: at(40) });
      expect((await store.getWallet(wallet.id))?.balance.toFixed(2)).toBe('72.63');

      await expect(pay(newId('transaction'))).rejects.toMatchObject(refusal('INVALID_STATE', { status: 'PAID' }));
      expect((await store.getWallet(wallet.id))?.balance.toFixed(2)).toBe('72.63');

      // Refund: the wallet is short of the total (fees are not returned): INSUFFICIENT_FUNDS, still PAID.
      const refund = (transactionId: string) =>
        store.commit([
          { type: 'transitionInvoice', invoiceId: invoice.id, trigger: 'refund', set: { refundedAt: at(50) } },
          invoiceRefund(invoice, transactionId, total, at(50)),
        ]);
      await expect(refund(newId('transaction'))).rejects.toMatchObject(refusal('INSUFFICIENT_FUNDS'));
      expect((await store.getInvoice(invoice.id))?.status).toBe('PAID');
    });

    it('refunds a PAID invoice when the wallet holds the total, once', async () => {
      const { store, wallet } = await oneWallet('10.00');
      const invoice = invoiceOf(wallet, 1);
      await finalized(store, invoice, 1);
      const total = new Big(invoice.total);
      await store.commit([
        invoicePayment(invoice, newId('transaction'), total, invoiceFeesOf('card', total), at(40)),
        { type: 'transitionInvoice', invoiceId: invoice.id, trigger: 'pay', set: { paidAt: at(40) }, pending: 'none' },
      ]);
      const refund = () =>
        store.commit([
          { type: 'transitionInvoice', invoiceId: invoice.id, trigger: 'refund', set: { refundedAt: at(50) } },
          invoiceRefund(invoice, newId('transaction'), total, at(50)),
        ]);
      await refund();
      expect(await store.getInvoice(invoice.id)).toMatchObject({ status: 'REFUNDED', refundedAt: at(50) });
      expect((await store.getWallet(wallet.id))?.balance.toFixed(2)).toBe('7.13');
      await expect(refund()).rejects.toMatchObject(refusal('INVALID_STATE', { status: 'REFUNDED' }));
    });

    it('keeps one bank debit in flight: no second one, no void, no card payment; its settlement pays and clears it', async () => {
      const { store, wallet } = await oneWallet();
      const invoice = invoiceOf(wallet, 1);
      await finalized(store, invoice, 1);
      const pending = {
        paymentMethodType: 'us_bank_account' as const,
        processorChargeId: 'ch_1',
        brand: 'TEST BANK',
        last4: '6789',
        startedAt: at(35),
      };
      await store.commit([{ type: 'startInvoicePendingPayment', invoiceId: invoice.id, pendingPayment: pending }]);
      expect((await store.getInvoice(invoice.id))?.pendingPayment).toEqual(pending);
      await expect(
        store.commit([
          {
            type: 'startInvoicePendingPayment',
            invoiceId: invoice.id,
            pendingPayment: { ...pending, processorChargeId: 'ch_2' },
          },
        ]),
      ).rejects.toMatchObject(refusal('INVALID_STATE'));
      await expect(
        store.commit([
          {
            type: 'transitionInvoice',
            invoiceId: invoice.id,
            trigger: 'void',
            set: { voidedAt: at(36) },
            pending: 'none',
          },
        ]),
      ).rejects.toMatchObject(refusal('INVALID_STATE'));
      // Settlement of another debit: refused; of this one: PAID, the pending debit gone.
      await expect(
        store.commit([
          {
            type: 'transitionInvoice',
            invoiceId: invoice.id,
            trigger: 'pay',
            set: { paidAt: at(37) },
            pending: { processorChargeId: 'ch_other' },
          },
        ]),
      ).rejects.toMatchObject(refusal('INVALID_STATE'));
      await store.commit([
        {
          type: 'transitionInvoice',
          invoiceId: invoice.id,
          trigger: 'pay',
          set: { paidAt: at(37) },
          pending: { processorChargeId: 'ch_1' },
        },
      ]);
      const paid = await store.getInvoice(invoice.id);
      expect(paid?.status).toBe('PAID');
      expect(paid?.pendingPayment).toBeUndefined();
    });

    it('counts declines conditioned on the count read: a stale count is CONCURRENT_UPDATE', async () => {
      const { store, wallet } = await oneWallet();
      const invoice = invoiceOf(wallet, 1);
      await finalized(store, invoice, 1);
      const decline = (count: number, previousCount: number) =>
        store.commit([
          { type: 'recordInvoiceDecline', invoiceId: invoice.id, declines: { count, since: at(40) }, previousCount },
        ]);
      await decline(1, 0);
      await expect(decline(1, 0)).rejects.toMatchObject(refusal('CONCURRENT_UPDATE'));
      await decline(2, 1);
      await expect(decline(2, 1)).rejects.toMatchObject(refusal('CONCURRENT_UPDATE'));
      expect((await store.getInvoice(invoice.id))?.declines).toEqual({ count: 2, since: at(40) });
      await expect(
        store.commit([
          {
            type: 'recordInvoiceDecline',
            invoiceId: newId('invoice'),
            declines: { count: 1, since: at(40) },
            previousCount: 0,
          },
        ]),
      ).rejects.toMatchObject(refusal('INVOICE_NOT_FOUND'));
    });

    it('clears a failed bank debit (the invoice stays FINALIZED and payable), then voids it', async () => {
      const { store, wallet } = await oneWallet();
      const invoice = invoiceOf(wallet, 1);
      await finalized(store, invoice, 1);
      const pending = {
        paymentMethodType: 'us_bank_account' as const,
        processorChargeId: 'ch_1',
        brand: 'TEST BANK',
        last4: '0002',
        startedAt: at(35),
      };
      await store.commit([{ type: 'startInvoicePendingPayment', invoiceId: invoice.id, pendingPayment: pending }]);
      await expect(
        store.commit([{ type: 'clearInvoicePendingPayment', invoiceId: invoice.id, processorChargeId: 'ch_9' }]),
      ).rejects.toMatchObject(refusal('INVALID_STATE'));
      await store.commit([{ type: 'clearInvoicePendingPayment', invoiceId: invoice.id, processorChargeId: 'ch_1' }]);
      expect((await store.getInvoice(invoice.id))?.pendingPayment).toBeUndefined();
      await store.commit([
        {
          type: 'transitionInvoice',
          invoiceId: invoice.id,
          trigger: 'void',
          set: { voidedAt: at(36) },
          pending: 'none',
        },
      ]);
      expect((await store.getInvoice(invoice.id))?.status).toBe('VOIDED');
      await expect(
        store.commit([{ type: 'transitionInvoice', invoiceId: newId('invoice'), trigger: 'void', set: {} }]),
      ).rejects.toMatchObject(refusal('INVOICE_NOT_FOUND'));
    });

    it('lists an organization environment newest first, by wallet, customer and status, page by page', async () => {
      const { store, scope, wallet, addWallet } = await oneWallet();
      const other = walletOf(scope, '0.00');
      await addWallet(other);
      const invoices = [
        invoiceOf(wallet, 1),
        invoiceOf(wallet, 2, { customerId: 'cus_contract2' }),
        invoiceOf(other, 3),
        invoiceOf(other, 4, { customerId: 'cus_contract2', status: 'FINALIZED' }),
        invoiceOf(wallet, 5),
      ];
      for (const invoice of invoices) await store.commit([{ type: 'putInvoice', invoice }]);
      const ids = (...picked: number[]) => picked.map((i) => invoices[i]!.id);
      const all = (filter: Parameters<InvoiceStore['listInvoices']>[1]) =>
        collectIds((page) => store.listInvoices(scope, filter, page), 2);
      expect(await all({})).toEqual(ids(4, 3, 2, 1, 0));
      expect(await all({ walletId: wallet.id })).toEqual(ids(4, 1, 0));
      expect(await all({ customerId: 'cus_contract2' })).toEqual(ids(3, 1));
      expect(await all({ walletId: other.id, customerId: 'cus_contract2' })).toEqual(ids(3));
      expect(await all({ status: 'FINALIZED' })).toEqual(ids(3));
      expect(await all({ walletId: wallet.id, status: 'FINALIZED' })).toEqual([]);
      expect(await collectIds((page) => store.listInvoices(organizationScope(), {}, page), 2)).toEqual([]);
    });
  });
}
