import Big from 'big.js';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENV } from '../../shared/config/env-names.js';
import { invoiceFeesOf } from '../../shared/domain/invoices/invoice-fees.js';
import { startTestService, type TestService } from '../fixtures/local-service.js';
import type { Organization } from '../fixtures/organizations.js';
import { expectOk, expectApiError, ledgerClient, type LedgerClient } from '../fixtures/payments-client.js';

/** One week per second: the ACH debit settles after 1 s (its floor), a week's interval in 1 s, 7 days of retries in 1 s. */
const TIME_SCALE = 604_800;
const BANK = {
  type: 'us_bank_account',
  routingNumber: '110000000',
  accountNumber: '000123456789',
  accountHolderName: 'Jane Doe',
  accountType: 'checking',
};

/** Collecting invoices over HTTP (docs/api.md "Invoices: collection"): ACH settlement, USDC, recurring charges, retries. */
describe('invoice collection', () => {
  let service: TestService;
  let api: LedgerClient;
  let org: Organization;
  let other: Organization;

  const call = (method: string, path: string, options: { key?: string; body?: unknown } = {}) =>
    service.call(method, path, options);
  const ok = expectOk;
  const error = expectApiError;
  const balanceOf = async (walletId: string) =>
    ok(await call('GET', `/v1/wallets/${walletId}`, { key: org.key })).balance as string;
  const newWallet = async (name: string) =>
    ok(await call('POST', '/v1/wallets', { key: org.key, body: { name } }), 201).id as string;
  const customer = async (email: string, method?: Record<string, unknown>) => {
    const id = ok(await call('POST', '/v1/customers', { key: org.key, body: { email, name: 'Jane Doe' } }), 201)
      .id as string;
    if (method)
      ok(await call('POST', `/v1/test-helpers/customers/${id}/payment-methods`, { key: org.key, body: method }), 201);
    return id;
  };
  const getInvoice = async (id: string) => ok(await call('GET', `/v1/invoices/${id}`, { key: org.key }));
  const slugOf = (url: string) => new URL(url).pathname.split('/')[3]!;
  /** A FINALIZED invoice of 75.50 into the wallet. */
  async function finalized(walletId: string, customerId: string) {
    const draft = ok(
      await call('POST', '/v1/invoices', {
        key: org.key,
        body: {
          walletId,
          customerId,
          lineItems: [
            { description: 'Widgets', quantity: 3, unitPrice: '25.00' },
            { description: 'Setup', unitPrice: '0.50' },
          ],
        },
      }),
      201,
    );
    return ok(await call('POST', `/v1/invoices/${draft.id}/finalize`, { key: org.key }));
  }
  /** The organization's events of a type about an invoice, oldest first. */
  async function eventsOf(type: string, invoiceId: string) {
    const events = ok(await call('GET', `/v1/events?type=${type}&limit=100`, { key: org.key })).data as {
      data: { id?: string; invoiceId?: string | null; status?: string };
    }[];
    return events.filter((e) => e.data.id === invoiceId || e.data.invoiceId === invoiceId).reverse();
  }
  /** Polls until `check` holds (the scaled clocks run in the service's own timers). */
  async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, what: string, ms = 15_000) {
    const until = Date.now() + ms;
    for (;;) {
      const value = await read();
      if (check(value)) return value;
      if (Date.now() > until) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  const net = (method: 'us_bank_account' | 'usdc' | 'card', total: string) =>
    invoiceFeesOf(method, new Big(total)).net.toFixed(8);

  beforeAll(async () => {
    service = await startTestService({
      [ENV.dataEncryptionKey]: randomBytes(32).toString('hex'),
      [ENV.timeScale]: String(TIME_SCALE),
    });
    api = ledgerClient(service);
    org = await service.createOrganization('Acme Collection');
    other = await service.createOrganization('Other Org');
  });
  afterAll(async () => {
    await service.close();
  });

  it('pays by bank account: pending, then PAID when the scaled ACH time has passed, credited total - ACH fees', async () => {
    const walletId = await newWallet('ACH');
    const invoice = await finalized(walletId, await customer('ach@example.com'));
    const slug = slugOf(invoice.hostedUrl);
    const paying = ok(await call('POST', `/v1/invoices/pay/${slug}/payments`, { body: BANK }));
    expect(paying).toMatchObject({ status: 'FINALIZED', pendingPayment: { paymentMethodType: 'us_bank_account' } });
    // A second payment while the debit is in flight: refused.
    error(await call('POST', `/v1/invoices/pay/${slug}/payments`, { body: BANK }), 409, 'INVALID_STATE');
    const paid = await eventually(
      () => getInvoice(invoice.id),
      (i) => i.status === 'PAID',
      'the ACH settlement',
    );
    // ACH: 0.8% of 75.50 = 0.604 -> 0.60; 0.25% = 0.18875 -> 0.19.
    expect(paid).toMatchObject({
      paymentMethodType: 'us_bank_account',
      fees: { provider: '0.60', service: '0.19' },
      netAmount: '74.71',
      amountPaid: '75.50',
    });
    expect(paid.pendingPayment).toBeUndefined();
    expect(await balanceOf(walletId)).toBe(net('us_bank_account', '75.50'));
    expect(
      await eventually(
        () => eventsOf('invoice.paid', invoice.id),
        (e) => e.length > 0,
        'invoice.paid',
      ),
    ).toHaveLength(1);
    await api.expectLedgerBalanced();
  });

  it('fails a bank debit of an account ending 0002: invoice.payment_failed, still FINALIZED, nothing credited', async () => {
    const walletId = await newWallet('ACH failing');
    const invoice = await finalized(walletId, await customer('ach-fail@example.com'));
    const slug = slugOf(invoice.hostedUrl);
    ok(await call('POST', `/v1/invoices/pay/${slug}/payments`, { body: { ...BANK, accountNumber: '000123450002' } }));
    const failed = await eventually(
      () => eventsOf('invoice.payment_failed', invoice.id),
      (events) => events.length === 1,
      'the failed settlement',
    );
    expect(failed[0]!.data.status).toBe('FINALIZED');
    const after = await getInvoice(invoice.id);
    expect(after.status).toBe('FINALIZED');
    expect(after.pendingPayment).toBeUndefined();
    expect(await balanceOf(walletId)).toBe('0.00000000');
    const audit = ok(await call('GET', `/v1/audit-logs?resource=${invoice.id}&limit=100`, { key: org.key }));
    expect(
      (audit.data as { action: string; metadata: Record<string, unknown> }[]).find(
        (e) => e.action === 'invoice.payment-failed',
      )?.metadata,
    ).toMatchObject({ declineCode: 'bank_debit_failed' });
    await api.expectLedgerBalanced();
  });

  it('pays by USDC: one address per invoice, the exact amount pays it with the USDC fees', async () => {
    const walletId = await newWallet('USDC');
    const invoice = await finalized(walletId, await customer('usdc@example.com'));
    const slug = slugOf(invoice.hostedUrl);
    const deposit = ok(await call('POST', `/v1/invoices/pay/${slug}/usdc`));
    expect(deposit).toEqual({
      object: 'usdc_deposit',
      address: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
      amount: '75.50',
      currency: 'USDC',
      chain: 'Ethereum',
    });
    expect(ok(await call('POST', `/v1/invoices/pay/${slug}/usdc`))).toEqual(deposit);

    // Written with USDC's 6 decimals: the same amount as the 75.50 due.
    const result = ok(
      await call('POST', '/v1/test-helpers/usdc/incoming', {
        key: org.key,
        body: { address: deposit.address.toLowerCase(), amount: '75.500000' },
      }),
    );
    expect(result).toMatchObject({ outcome: 'PAID', invoiceId: invoice.id, receiptId: null });
    // USDC: 0.50 flat; 0.5% of 75.50 = 0.3775 -> 0.38.
    expect(await getInvoice(invoice.id)).toMatchObject({
      status: 'PAID',
      paymentMethodType: 'usdc',
      fees: { provider: '0.50', service: '0.38' },
      netAmount: '74.62',
    });
    expect(await balanceOf(walletId)).toBe(net('usdc', '75.50'));
    // Paid: no more address, and a second transfer is unmatched.
    error(await call('POST', `/v1/invoices/pay/${slug}/usdc`), 409, 'INVALID_STATE');
    const again = ok(
      await call('POST', '/v1/test-helpers/usdc/incoming', {
        key: org.key,
        body: { address: deposit.address, amount: '75.50' },
      }),
    );
    expect(again).toMatchObject({ outcome: 'UNMATCHED', invoiceId: invoice.id, reason: 'invoice_not_open' });
    expect(await balanceOf(walletId)).toBe(net('usdc', '75.50'));
    await api.expectLedgerBalanced();
  });

  it('credits nothing for a wrong amount or an unknown address: invoice.usdc_unmatched and a receipt', async () => {
    const walletId = await newWallet('USDC unmatched');
    const invoice = await finalized(walletId, await customer('usdc-wrong@example.com'));
    const deposit = ok(await call('POST', `/v1/invoices/pay/${slugOf(invoice.hostedUrl)}/usdc`));
    const wrong = ok(
      await call('POST', '/v1/test-helpers/usdc/incoming', {
        key: org.key,
        body: { address: deposit.address, amount: '75.499999' },
      }),
    );
    expect(wrong).toMatchObject({ outcome: 'UNMATCHED', invoiceId: invoice.id, reason: 'amount_mismatch' });
    expect(await getInvoice(invoice.id)).toMatchObject({ status: 'FINALIZED', amountPaid: '0.00' });
    expect(await balanceOf(walletId)).toBe('0.00000000');
    const [event] = await eventually(
      () => eventsOf('invoice.usdc_unmatched', invoice.id),
      (e) => e.length > 0,
      'invoice.usdc_unmatched',
    );
    expect(event!.data).toMatchObject({
      address: deposit.address,
      amount: '75.499999',
      invoiceId: invoice.id,
      reason: 'amount_mismatch',
    });

    // Another organization's address is unknown to the caller (no invoice named).
    const foreign = ok(
      await call('POST', '/v1/test-helpers/usdc/incoming', {
        key: other.key,
        body: { address: deposit.address, amount: '75.50' },
      }),
    );
    expect(foreign).toMatchObject({ outcome: 'UNMATCHED', invoiceId: null, reason: 'unknown_address' });
    expect(await getInvoice(invoice.id)).toMatchObject({ status: 'FINALIZED' });
    error(
      await call('POST', '/v1/test-helpers/usdc/incoming', { key: org.key, body: { address: 'nope', amount: '1' } }),
      400,
      'VALIDATION_ERROR',
    );

    const receipts = ok(await call('GET', '/v1/usdc-receipts?status=UNMATCHED', { key: org.key })).data as {
      id: string;
      reason: string;
    }[];
    expect(receipts.map((r) => r.id)).toContain(wrong.receiptId);
    const theirs = ok(await call('GET', '/v1/usdc-receipts', { key: other.key })).data as { id: string }[];
    expect(theirs.map((r) => r.id)).toEqual([foreign.receiptId]);
    // The exact amount still pays it afterwards.
    ok(
      await call('POST', '/v1/test-helpers/usdc/incoming', {
        key: org.key,
        body: { address: deposit.address, amount: '75.50' },
      }),
    );
    expect(await balanceOf(walletId)).toBe(net('usdc', '75.50'));
    await api.expectLedgerBalanced();
  });

  it('runs a weekly recurring charge again after the scaled week, as a new PAID invoice, until cancelled', async () => {
    const walletId = await newWallet('Recurring');
    const customerId = await customer('weekly@example.com', {});
    const first = ok(
      await call('POST', '/v1/invoices/charge', {
        key: org.key,
        body: { walletId, customerId, amount: '20.00', description: 'Weekly plan', recurring: { interval: 'weekly' } },
      }),
      201,
    );
    expect(first).toMatchObject({ status: 'PAID', recurring: { interval: 'weekly', status: 'ACTIVE', runs: 1 } });
    expect((await getInvoice(first.id)).recurring).toMatchObject({ interval: 'weekly', endAt: null, status: 'ACTIVE' });

    const paidOfWallet = async () =>
      (ok(await call('GET', `/v1/invoices?walletId=${walletId}&status=PAID`, { key: org.key })).data as {
        id: string;
        metadata?: Record<string, unknown>;
      }[]) ?? [];
    const two = await eventually(paidOfWallet, (list) => list.length >= 2, 'the second weekly charge');
    const second = two.find((i) => i.id !== first.id)!;
    expect(second.metadata).toMatchObject({ recurringInvoiceId: first.id, recurringRun: 2 });
    expect((await getInvoice(first.id)).recurring.runs).toBeGreaterThanOrEqual(2);

    const cancelled = ok(await call('DELETE', `/v1/invoices/${first.id}/recurring`, { key: org.key }));
    expect(cancelled).toMatchObject({ status: 'CANCELLED', nextChargeAt: null });
    const runs = (await getInvoice(first.id)).recurring.runs as number;
    error(await call('DELETE', `/v1/invoices/${first.id}/recurring`, { key: org.key }), 409, 'INVALID_STATE');
    error(await call('DELETE', `/v1/invoices/${second.id}/recurring`, { key: org.key }), 409, 'INVALID_STATE');
    error(await call('DELETE', `/v1/invoices/${first.id}/recurring`, { key: other.key }), 404, 'INVOICE_NOT_FOUND');
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect((await paidOfWallet()).length).toBe(runs);
    expect(await balanceOf(walletId)).toBe(new Big(net('card', '20.00')).times(runs).toFixed(8));
    await api.expectLedgerBalanced();
  });

  it('retries a declined charge 3 times, then UNCOLLECTIBLE, every failure and the end emitted', async () => {
    const walletId = await newWallet('Retries');
    const customerId = await customer('declines@example.com', { type: 'card', number: '4000000000000002' });
    const declined = error(
      await call('POST', '/v1/invoices/charge', {
        key: org.key,
        body: { walletId, customerId, amount: '30.00', description: 'Monthly plan' },
      }),
      402,
      'PAYMENT_DECLINED',
    );
    const invoiceId = declined.details!.invoiceId as string;
    const ended = await eventually(
      () => getInvoice(invoiceId),
      (i) => i.status === 'UNCOLLECTIBLE',
      'the third retry',
    );
    expect(ended.amountPaid).toBe('0.00');
    expect(
      await eventually(
        () => eventsOf('invoice.payment_failed', invoiceId),
        (e) => e.length >= 4,
        'four failures',
      ),
    ).toHaveLength(4);
    const [uncollectible] = await eventually(
      () => eventsOf('invoice.uncollectible', invoiceId),
      (e) => e.length > 0,
      'invoice.uncollectible',
    );
    expect(uncollectible!.data.status).toBe('UNCOLLECTIBLE');
    const audit = ok(await call('GET', `/v1/audit-logs?resource=${invoiceId}&limit=100`, { key: org.key })).data as {
      action: string;
      actorType: string;
    }[];
    expect(audit.find((e) => e.action === 'invoice.uncollectible')).toMatchObject({ actorType: 'SYSTEM' });
    expect(await balanceOf(walletId)).toBe('0.00000000');
    await api.expectLedgerBalanced();
  });

  it('stops the retries of an invoice paid meanwhile on its page', async () => {
    const walletId = await newWallet('Paid meanwhile');
    const customerId = await customer('paid-meanwhile@example.com', { type: 'card', number: '4000000000000002' });
    const declined = error(
      await call('POST', '/v1/invoices/charge', {
        key: org.key,
        body: { walletId, customerId, amount: '30.00', description: 'Plan' },
      }),
      402,
      'PAYMENT_DECLINED',
    );
    const invoice = await getInvoice(declined.details!.invoiceId);
    ok(
      await call('POST', `/v1/invoices/pay/${slugOf(invoice.hostedUrl)}/payments`, {
        body: { type: 'card', number: '4242424242424242', expMonth: 12, expYear: 2030, cvc: '123' },
      }),
    );
    // Retries already run (a scaled day is 0.14 s) each emitted payment_failed; none runs after the
    // payment. Counted once the events committed before it have reached the feed, then again later.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const failures = (await eventsOf('invoice.payment_failed', invoice.id)).length;
    expect(failures).toBeGreaterThanOrEqual(1);
    expect(failures).toBeLessThan(4);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(await getInvoice(invoice.id)).toMatchObject({ status: 'PAID' });
    expect(await eventsOf('invoice.payment_failed', invoice.id)).toHaveLength(failures);
    expect(await eventsOf('invoice.uncollectible', invoice.id)).toHaveLength(0);
    await api.expectLedgerBalanced();
  });
});
