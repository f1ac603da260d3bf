import { describe, expect, it } from 'vitest';
import { ASSETS } from '../../shared/hosted/assets.js';
import { HOSTED_FUNCTION } from '../../shared/hosted/function.js';
import { HOSTED_ROUTES } from '../../shared/hosted/port.js';
import { isCrossSite } from '../../shared/hosted/same-origin.js';
import type { HttpResponse } from '../../shared/http/responses.js';
import { CATALOG } from '../../shared/operations/index.js';
import { fakeHostedCatalog } from '../fixtures/hosted-catalog.js';
import { expectWellFormedPage, hostedPagesOver } from '../fixtures/hosted-pages.js';

const TOKEN = 'tok_open_0000000001';
const SLUG = 'slug_open_000000001';

function pages(options: { usdc?: boolean; perSecond?: number } = {}) {
  const { catalog, state } = fakeHostedCatalog({ usdc: options.usdc ?? false });
  return { call: hostedPagesOver(catalog, options), state };
}

describe('hosted pages: every page', () => {
  const cases: [string, (p: ReturnType<typeof pages>) => Promise<HttpResponse>, number][] = [
    ['unknown link', (p) => p.call('GET', '/hosted/payment-methods/tok_nobody_000000'), 404],
    ['unknown path', (p) => p.call('GET', '/hosted/nothing-here'), 404],
    ['setup page (card)', (p) => p.call('GET', `/hosted/payment-methods/${TOKEN}`), 200],
    ['setup page (bank)', (p) => p.call('GET', `/hosted/payment-methods/${TOKEN}`, { query: { method: 'bank' } }), 200],
    ['invoice page', (p) => p.call('GET', `/hosted/invoices/${SLUG}`), 200],
    ['checkout (card)', (p) => p.call('GET', `/hosted/invoices/${SLUG}/checkout`), 200],
    ['checkout (bank)', (p) => p.call('GET', `/hosted/invoices/${SLUG}/checkout`, { query: { method: 'bank' } }), 200],
    [
      'checkout with a decline',
      (p) =>
        p.call('POST', `/hosted/invoices/${SLUG}/checkout`, {
          query: { method: 'card' },
          form: { type: 'card', number: '4000 0000 0000 0002', expMonth: '12', expYear: '2030', cvc: '123' },
        }),
      402,
    ],
  ];
  it.each(cases)('%s is a well-formed page without inline script or style', async (_, render, status) => {
    const response = await render(pages());
    expect(response.statusCode).toBe(status);
    expectWellFormedPage(response);
  });

  it('shows the environment on pages about a session or an invoice', async () => {
    const { call } = pages();
    for (const path of [`/hosted/payment-methods/${TOKEN}`, `/hosted/invoices/${SLUG}`]) {
      expect((await call('GET', path)).body).toContain('Sandbox: test data, no real money');
    }
  });

  it('escapes what the merchant wrote', async () => {
    const { body } = await pages().call('GET', `/hosted/invoices/${SLUG}`);
    expect(body).toContain('Data export &lt;b&gt;bold&lt;/b&gt;');
    expect(body).toContain('$1,234.50');
    expect(body).toContain('$1,354.50');
  });

  it('serves the stylesheet and the script under hashed names with a long cache', async () => {
    const { call } = pages();
    for (const asset of [ASSETS.stylesheet, ASSETS.script]) {
      const response = await call('GET', asset.path);
      expect(response.statusCode).toBe(200);
      expect(response.headers['Cache-Control']).toBe('public, max-age=31536000, immutable');
      expect(response.headers['Content-Type']).toBe(asset.contentType);
      expect(response.body).toBe(asset.body);
    }
  });
});

describe('hosted pages: payment-method setup', () => {
  it('saves a card, redirects (303) to the saved page, and then answers the link as used', async () => {
    const { call, state } = pages();
    const response = await call('POST', `/hosted/payment-methods/${TOKEN}`, {
      query: { method: 'card' },
      form: { type: 'card', number: '4242 4242 4242 4242', expMonth: '12', expYear: '29', cvc: '123' },
    });
    expect(response.statusCode).toBe(303);
    expect(response.headers.Location).toBe(`/hosted/payment-methods/${TOKEN}?saved=1`);
    expect(state.inputs).toEqual([
      { type: 'card', number: '4242424242424242', expMonth: 12, expYear: 2029, cvc: '123' },
    ]);
    const saved = await call('GET', `/hosted/payment-methods/${TOKEN}`, { query: { saved: '1' } });
    expect(saved.body).toContain('Payment method saved');
    const again = await call('GET', `/hosted/payment-methods/${TOKEN}`);
    expect(again.statusCode).toBe(410);
    expect(again.body).toContain('This link has already been used');
  });

  it('shows a refused number in an alert, marks the field, and never writes the number back', async () => {
    const response = await pages().call('POST', `/hosted/payment-methods/${TOKEN}`, {
      query: { method: 'card' },
      form: { type: 'card', number: '4111 1111 1111 1112', expMonth: '07', expYear: '2031', cvc: '999' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.body).toMatch(/<div class="alert" role="alert"><p>Card number: is not a valid card number/);
    expect(response.body).toMatch(/id="number"[^>]*aria-invalid="true"/);
    expect(response.body).not.toContain('4111');
    expect(response.body).not.toContain('999');
    expect(response.body).toContain('value="07"');
    expectWellFormedPage(response);
  });

  it('sends a bank account as the operation expects it', async () => {
    const { call, state } = pages();
    await call('POST', `/hosted/payment-methods/${TOKEN}`, {
      query: { method: 'bank' },
      form: {
        type: 'us_bank_account',
        accountHolderName: ' Dana Client ',
        routingNumber: '110000000',
        accountNumber: '000123456789',
        accountType: 'savings',
      },
    });
    expect(state.inputs).toEqual([
      {
        type: 'us_bank_account',
        routingNumber: '110000000',
        accountNumber: '000123456789',
        accountHolderName: 'Dana Client',
        accountType: 'savings',
      },
    ]);
  });

  it('answers an expired link with its refusal page', async () => {
    const { call, state } = pages();
    state.sessions.get(TOKEN)!.status = 'EXPIRED';
    const response = await call('GET', `/hosted/payment-methods/${TOKEN}`);
    expect(response.statusCode).toBe(410);
    expect(response.body).toContain('This link has expired');
    expectWellFormedPage(response);
  });
});

describe('hosted pages: invoices', () => {
  const card = { type: 'card', number: '4242424242424242', expMonth: '12', expYear: '2030', cvc: '123' };

  it('pays by card on the checkout page, then redirects to the receipt', async () => {
    const { call, state } = pages();
    const response = await call('POST', `/hosted/invoices/${SLUG}/checkout`, { query: { method: 'card' }, form: card });
    expect(response.statusCode).toBe(303);
    expect(response.headers.Location).toBe(`/hosted/invoices/${SLUG}/receipt`);
    expect(state.invoices.get(SLUG)!.status).toBe('PAID');
    const receipt = await call('GET', `/hosted/invoices/${SLUG}/receipt`);
    expect(receipt.statusCode).toBe(200);
    expect(receipt.body).toContain('Payment received');
    expectWellFormedPage(receipt);
    // Paid: the checkout page sends to the receipt.
    const checkout = await call('GET', `/hosted/invoices/${SLUG}/checkout`);
    expect([checkout.statusCode, checkout.headers.Location]).toEqual([303, `/hosted/invoices/${SLUG}/receipt`]);
  });

  it('shows a declined card in an alert and leaves the invoice open', async () => {
    const { call, state } = pages();
    const response = await call('POST', `/hosted/invoices/${SLUG}/checkout`, {
      query: { method: 'card' },
      form: { ...card, number: '4000000000000002' },
    });
    expect(response.statusCode).toBe(402);
    expect(response.body).toMatch(/role="alert"><p>Your card was declined\./);
    expect(state.invoices.get(SLUG)!.status).toBe('FINALIZED');
  });

  it('answers a voided invoice with its refusal page, on the invoice and the checkout page', async () => {
    const { call, state } = pages();
    state.invoices.get(SLUG)!.status = 'VOIDED';
    for (const path of [`/hosted/invoices/${SLUG}`, `/hosted/invoices/${SLUG}/checkout`]) {
      const response = await call('GET', path);
      expect(response.statusCode).toBe(410);
      expect(response.body).toContain('This invoice was cancelled');
      expectWellFormedPage(response);
    }
  });

  it('sends the receipt of an unpaid invoice to the invoice page', async () => {
    const response = await pages().call('GET', `/hosted/invoices/${SLUG}/receipt`);
    expect([response.statusCode, response.headers.Location]).toEqual([303, `/hosted/invoices/${SLUG}`]);
  });

  it('offers USDC only when the catalog has the operation, and shows the address with the exact amount', async () => {
    expect((await pages().call('GET', `/hosted/invoices/${SLUG}`)).body).not.toContain('USDC');
    const withUsdc = pages({ usdc: true });
    expect((await withUsdc.call('GET', `/hosted/invoices/${SLUG}`)).body).toContain('Show the USDC address');
    const response = await withUsdc.call('POST', `/hosted/invoices/${SLUG}/usdc`, { form: {} });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('0xabc0000000000000000000000000000000000001');
    expect(response.body).toContain('1354.50 USDC');
    expectWellFormedPage(response);
  });
});

describe('hosted pages: the edge', () => {
  it.each(Object.entries(HOSTED_ROUTES))(
    'finds %s among the public operations of the groups the hosted function serves',
    (_, route) => {
      const served = CATALOG.filter((group) => (HOSTED_FUNCTION.groups as readonly string[]).includes(group.group))
        .flatMap((group) => group.operations)
        .filter((op) => op.access === 'public')
        .map((op) => `${op.http.method} ${op.http.path.replace(/\{[^}]+\}/g, '{}')}`);
      expect(served).toContain(route);
    },
  );

  it('refuses a form posted from another site', async () => {
    const response = await pages().call('POST', `/hosted/invoices/${SLUG}/checkout`, {
      form: { type: 'card' },
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(response.statusCode).toBe(403);
    expectWellFormedPage(response);
  });

  it.each([
    [undefined, 'same-origin', undefined, false],
    [undefined, 'none', undefined, false],
    [undefined, 'same-site', undefined, true],
    [undefined, 'cross-site', undefined, true],
    ['https://pages.example.test', undefined, 'pages.example.test', false],
    ['https://evil.example', undefined, 'pages.example.test', true],
    ['null', undefined, 'pages.example.test', true],
    [undefined, undefined, 'pages.example.test', false],
  ])('origin %s, Sec-Fetch-Site %s, host %s: cross-site %s', (origin, site, host, crossSite) => {
    expect(isCrossSite(origin, site, host)).toBe(crossSite);
  });

  it('limits requests per IP and says when to retry', async () => {
    const { call } = pages({ perSecond: 2 });
    // Six calls within a few milliseconds span at most two one-second windows: at most four pass.
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await call('GET', `/hosted/invoices/${SLUG}`));
    expect(answers.filter((answer) => answer.statusCode === 200).length).toBeLessThanOrEqual(4);
    const limited = answers.find((answer) => answer.statusCode === 429)!;
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['Retry-After']).toBe('1');
    expectWellFormedPage(limited);
    expect((await call('GET', `/hosted/invoices/${SLUG}`, { ip: '203.0.113.10' })).statusCode).toBe(200);
  });

  it('refuses a form that is not form-encoded, as a page', async () => {
    const response = await pages().call('POST', `/hosted/invoices/${SLUG}/checkout`, {
      form: { type: 'card' },
      headers: { 'content-type': 'application/json' },
    });
    expect(response.statusCode).toBe(415);
    expectWellFormedPage(response);
  });
});
