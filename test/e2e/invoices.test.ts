import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENV } from '../../shared/config/env-names.js';
import { startTestService, type TestService } from '../fixtures/local-service.js';
import type { Organization } from '../fixtures/organizations.js';
import { expectOk, expectApiError, ledgerClient, type LedgerClient } from '../fixtures/payments-client.js';
import { eventually } from '../fixtures/eventually.js';

const CARD = { type: 'card', number: '4242424242424242', expMonth: 12, expYear: 2030, cvc: '123' };
const DECLINED = { ...CARD, number: '4000000000000002' };

/** Invoices over HTTP as a client and its customer use them (docs/api.md "Invoices"). */
describe('invoices', () => {
  let service: TestService;
  let api: LedgerClient;
  let org: Organization;
  let other: Organization;

  const call = (method: string, path: string, options: { key?: string; body?: unknown } = {}) =>
    service.call(method, path, options);
  const ok = expectOk;
  const error = expectApiError;
  const balanceOf = async (walletId: string, key = org.key) =>
    ok(await call('GET', `/v1/wallets/${walletId}`, { key })).balance as string;
  const customer = async (email: string) =>
    ok(await call('POST', '/v1/customers', { key: org.key, body: { email, name: 'Jane Doe' } }), 201).id as string;
  const slugOf = (url: string) => new URL(url).pathname.split('/')[3]!;

  /** A finalized invoice of two lines (3 x 25.00 + 0.50 = 75.50) into a new wallet. */
  async function finalizedInvoice(walletId: string, customerId: string) {
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
          memo: 'Thank you',
          dueDate: '2026-12-15',
          metadata: { order: '42' },
        },
      }),
      201,
    );
    expect(draft).toMatchObject({ status: 'DRAFT', total: '75.50', amountPaid: '0.00', number: null, hostedUrl: null });
    return ok(await call('POST', `/v1/invoices/${draft.id}/finalize`, { key: org.key }));
  }
  const newWallet = async (name: string) =>
    ok(await call('POST', '/v1/wallets', { key: org.key, body: { name } }), 201).id as string;

  beforeAll(async () => {
    service = await startTestService({ [ENV.dataEncryptionKey]: randomBytes(32).toString('hex') });
    api = ledgerClient(service);
    org = await service.createOrganization('Acme Billing');
    other = await service.createOrganization('Other Org');
  });
  afterAll(async () => {
    await service.close();
  });

  it('creates, finalizes and is paid by card on the public route: PAID, the wallet credited total - fees to the cent', async () => {
    const walletId = await newWallet('Billing');
    const customerId = await customer('pay@example.com');
    const invoice = await finalizedInvoice(walletId, customerId);
    expect(invoice).toMatchObject({ status: 'FINALIZED', number: expect.stringMatching(/^INV-\d{6}$/) });
    expect(invoice.hostedUrl).toBe(`${service.baseUrl}/hosted/invoices/${invoice.slug}`);
    await api.expectLedgerBalanced();

    const checkout = ok(await call('POST', `/v1/invoices/${invoice.id}/checkout`, { key: org.key }));
    expect(checkout).toEqual({ url: `${service.baseUrl}/hosted/invoices/${invoice.slug}/checkout` });
    const slug = slugOf(invoice.hostedUrl);
    const publicView = ok(await call('GET', `/v1/invoices/pay/${slug}`));
    expect(publicView).toMatchObject({
      number: invoice.number,
      merchantName: 'Acme Billing',
      customerName: 'Jane Doe',
      total: '75.50',
      status: 'FINALIZED',
      checkoutUrl: checkout.url,
    });
    for (const hidden of ['walletId', 'customerId', 'metadata', 'id', 'fees'])
      expect(publicView).not.toHaveProperty(hidden);
    expect(ok(await call('POST', `/v1/invoices/pay/${slug}/checkout`))).toEqual(checkout);

    const paid = ok(await call('POST', `/v1/invoices/pay/${slug}/payments`, { body: CARD }));
    expect(paid).toMatchObject({ status: 'PAID', amountPaid: '75.50', paidAt: expect.any(String) });
    const stored = ok(await call('GET', `/v1/invoices/${invoice.id}`, { key: org.key }));
    // 75.50 by card: 2.9% + 0.30 = 2.4895 -> 2.49; 0.5% = 0.3775 -> 0.38; net 72.63.
    expect(stored).toMatchObject({
      status: 'PAID',
      paymentMethodType: 'card',
      fees: { provider: '2.49', service: '0.38' },
      netAmount: '72.63',
    });
    expect(await balanceOf(walletId)).toBe('72.63000000');
    await api.expectLedgerBalanced();
    error(await call('POST', `/v1/invoices/pay/${slug}/payments`, { body: CARD }), 409, 'INVALID_STATE');
    error(await call('POST', `/v1/invoices/${invoice.id}/void`, { key: org.key }), 409, 'INVALID_STATE');
    error(await call('POST', `/v1/invoices/${invoice.id}/finalize`, { key: org.key }), 409, 'INVALID_STATE');

    // Refund: the wallet holds 72.63 < 75.50 (fees are not returned): INSUFFICIENT_FUNDS until funded.
    error(await call('POST', `/v1/invoices/${invoice.id}/refund`, { key: org.key }), 402, 'INSUFFICIENT_FUNDS');
    await api.fund(org.key, walletId, '10.00');
    const refunded = ok(await call('POST', `/v1/invoices/${invoice.id}/refund`, { key: org.key }));
    expect(refunded).toMatchObject({ status: 'REFUNDED', refundedAt: expect.any(String) });
    expect(await balanceOf(walletId)).toBe('7.13000000');
    await api.expectLedgerBalanced();
    error(await call('POST', `/v1/invoices/${invoice.id}/refund`, { key: org.key }), 409, 'INVALID_STATE');

    // Events are a projection of the journal: visible within 2 s (decisions.md section 9), not at once.
    await eventually(async () => {
      const events = ok(await call('GET', `/v1/events?limit=50`, { key: org.key })).data as {
        type: string;
        data: { id: string };
      }[];
      const types = events.filter((e) => e.data.id === invoice.id).map((e) => e.type);
      expect(types).toEqual(
        expect.arrayContaining(['invoice.created', 'invoice.finalized', 'invoice.paid', 'invoice.refunded']),
      );
    });
  });

  it('declines 4000000000000002 with 402 PAYMENT_DECLINED and leaves the invoice FINALIZED', async () => {
    const walletId = await newWallet('Declines');
    const invoice = await finalizedInvoice(walletId, await customer('decline@example.com'));
    const refusal = error(
      await call('POST', `/v1/invoices/pay/${invoice.slug}/payments`, { body: DECLINED }),
      402,
      'PAYMENT_DECLINED',
    );
    expect(refusal.details).toEqual({ declineCode: 'card_declined' });
    expect(ok(await call('GET', `/v1/invoices/${invoice.id}`, { key: org.key })).status).toBe('FINALIZED');
    expect(await balanceOf(walletId)).toBe('0.00000000');
    await api.expectLedgerBalanced();
    // Voided, it can be paid no more.
    expect(ok(await call('POST', `/v1/invoices/${invoice.id}/void`, { key: org.key })).status).toBe('VOIDED');
    error(await call('POST', `/v1/invoices/pay/${invoice.slug}/payments`, { body: CARD }), 409, 'INVALID_STATE');
    error(await call('POST', `/v1/invoices/${invoice.id}/checkout`, { key: org.key }), 409, 'INVALID_STATE');
  });

  it('charges a saved card once per idempotency key, and lists by wallet, customer and status', async () => {
    const walletId = await newWallet('Charges');
    const customerId = await customer('charge@example.com');
    ok(await call('POST', `/v1/test-helpers/customers/${customerId}/payment-methods`, { key: org.key, body: {} }), 201);
    const body = { walletId, customerId, amount: '100.00', description: 'Subscription', idempotencyKey: 'charge-1' };
    const charged = ok(await call('POST', '/v1/invoices/charge', { key: org.key, body }), 201);
    expect(charged).toMatchObject({ status: 'PAID', total: '100.00', netAmount: '96.30', paymentMethodType: 'card' });
    const again = await call('POST', '/v1/invoices/charge', { key: org.key, body });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(charged);
    error(
      await call('POST', '/v1/invoices/charge', { key: org.key, body: { ...body, amount: '5.00' } }),
      409,
      'IDEMPOTENCY_KEY_REUSE',
    );
    expect(await balanceOf(walletId)).toBe('96.30000000');
    await api.expectLedgerBalanced();

    const declining = await customer('charge-declined@example.com');
    ok(
      await call('POST', `/v1/test-helpers/customers/${declining}/payment-methods`, {
        key: org.key,
        body: { type: 'card', number: '4000000000000002' },
      }),
      201,
    );
    const declined = error(
      await call('POST', '/v1/invoices/charge', {
        key: org.key,
        body: { ...body, customerId: declining, idempotencyKey: 'charge-2' },
      }),
      402,
      'PAYMENT_DECLINED',
    );
    expect(declined.details).toMatchObject({ declineCode: 'card_declined', invoiceId: expect.stringMatching(/^inv_/) });
    error(
      await call('POST', '/v1/invoices/charge', {
        key: org.key,
        body: { ...body, recurring: { interval: 'daily' } },
      }),
      400,
      'VALIDATION_ERROR',
    );

    const list = (query: string) =>
      call('GET', `/v1/invoices?${query}`, { key: org.key }).then((r) =>
        (ok(r).data as { id: string }[]).map((i) => i.id),
      );
    expect(await list(`walletId=${walletId}`)).toEqual([declined.details!.invoiceId, charged.id]);
    expect(await list(`customerId=${customerId}`)).toEqual([charged.id]);
    expect(await list(`walletId=${walletId}&status=FINALIZED`)).toEqual([declined.details!.invoiceId]);
    const firstPage = ok(await call('GET', `/v1/invoices?walletId=${walletId}&limit=1`, { key: org.key }));
    expect(firstPage.hasMore).toBe(true);
  });

  it('refuses bad input by field and answers other organizations 404', async () => {
    const walletId = await newWallet('Isolated');
    const customerId = await customer('iso@example.com');
    const invoice = await finalizedInvoice(walletId, customerId);
    const bad = await call('POST', '/v1/invoices', {
      key: org.key,
      body: { walletId, customerId, lineItems: [{ description: 'x', unitPrice: '1.001' }] },
    });
    expect(error(bad, 400, 'INVALID_AMOUNT').details).toMatchObject({ field: 'lineItems.0.unitPrice' });
    expect(
      error(
        await call('POST', '/v1/invoices', { key: org.key, body: { walletId, customerId, lineItems: [], extra: 1 } }),
        400,
        'VALIDATION_ERROR',
      ),
    ).toBeDefined();
    error(await call('GET', `/v1/invoices/inv_nothingHere000000000000`, { key: org.key }), 404, 'INVOICE_NOT_FOUND');
    for (const [method, path] of [
      ['GET', `/v1/invoices/${invoice.id}`],
      ['POST', `/v1/invoices/${invoice.id}/void`],
      ['POST', `/v1/invoices/${invoice.id}/refund`],
      ['POST', `/v1/invoices/${invoice.id}/checkout`],
    ] as const)
      error(await call(method, path, { key: other.key }), 404, 'INVOICE_NOT_FOUND');
    error(
      await call('POST', '/v1/invoices', {
        key: other.key,
        body: { walletId, customerId, lineItems: [{ description: 'x', unitPrice: '5.00' }] },
      }),
      404,
      'WALLET_NOT_FOUND',
    );
    expect(ok(await call('GET', '/v1/invoices', { key: other.key })).data).toEqual([]);
    error(await call('GET', '/v1/invoices/pay/noSuchSlug000000000000000'), 404, 'INVOICE_NOT_FOUND');
  });
});
