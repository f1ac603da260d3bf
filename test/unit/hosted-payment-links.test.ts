import { describe, expect, it } from 'vitest';
import type { HttpResponse } from '../../shared/http/responses.js';
import {
  ALLOWED_EMAIL,
  ALLOWED_WALLET,
  CLAIMANT_WALLET,
  FROZEN_WALLET,
  IN_FLIGHT_KEY,
  LINK_METADATA_VALUE,
  LINK_WALLET,
  SLUGS,
  fakeLinkCatalog,
} from '../fixtures/hosted-link-catalog.js';
import { expectWellFormedPage, hostedPagesOver, type PageCall } from '../fixtures/hosted-pages.js';

const path = (slug: string) => `/hosted/payment-links/${slug}`;

function pages() {
  const { catalog, state } = fakeLinkCatalog();
  const call = hostedPagesOver(catalog);
  const html: string[] = [];
  // Every page the test renders is kept, to look for what must never be shown.
  const seen = async (method: string, at: string, request?: PageCall): Promise<HttpResponse> => {
    const response = await call(method, at, request);
    html.push(response.body);
    return response;
  };
  return { call: seen, state, html };
}

/** The hidden idempotency key of the claim form in a page. */
function keyOf(body: string): string {
  const key = /<input type="hidden" name="idempotencyKey" value="([^"]+)"\/>/.exec(body)?.[1];
  expect(key, 'the claim form carries an idempotency key').toBeDefined();
  return key!;
}

const h1Of = (body: string) => /<h1>([^<]*)<\/h1>/.exec(body)?.[1];
const alertOf = (body: string) => /<div class="alert" role="alert"><p>([^<]*)<\/p>/.exec(body)?.[1];

/** Sends the claim form of the page as a browser would: the hidden key of a fresh rendering and the fields. */
async function claim(
  p: ReturnType<typeof pages>,
  slug: string,
  method: 'wallet' | 'bank' | 'usdc',
  fields: Record<string, string>,
) {
  const form = await p.call('GET', path(slug), { query: { method } });
  return p.call('POST', path(slug), { query: { method }, form: { idempotencyKey: keyOf(form.body), ...fields } });
}

describe('hosted pages: the payment-link claim page, every state', () => {
  it.each([
    ['an ACTIVE link (wallet form)', SLUGS.active, {}, 200, 'Claim $25.00'],
    ['an ACTIVE link (bank account form)', SLUGS.active, { method: 'bank' }, 200, 'Claim $25.00'],
    ['an ACTIVE link (USDC form)', SLUGS.active, { method: 'usdc' }, 200, 'Claim $25.00'],
    ['an ACTIVE restricted link', SLUGS.restricted, {}, 200, 'Claim $25.00'],
    ['an ACTIVE USDC link of the live environment', SLUGS.usdc, {}, 200, 'Claim 1250.50 USDC'],
    ['a SETTLED link', SLUGS.settled, {}, 200, 'This link has been claimed'],
    ['a CLAIMED link (pending)', SLUGS.claimed, {}, 200, 'This link has been claimed'],
    ['an EXPIRED link', SLUGS.expired, {}, 410, 'This link has expired'],
    ['a CANCELLED link', SLUGS.cancelled, {}, 410, 'This link was cancelled'],
    ['a PENDING_APPROVAL link', SLUGS.pendingApproval, {}, 200, 'This link is not yet available'],
    ['an unknown slug', 'Lnk0Nobody000000000000Z', {}, 404, 'This link is not valid'],
    ['a slug that can name no link', 'a.b', {}, 404, 'This link is not valid'],
  ])('shows %s as a well-formed page', async (_, slug, query, status, title) => {
    const response = await pages().call('GET', path(slug), { query });
    expect(response.statusCode).toBe(status);
    expect(h1Of(response.body)).toBe(title);
    expectWellFormedPage(response);
  });

  it('shows the amount, what it is for (escaped), until when, and the environment; no email field when unrestricted', async () => {
    const { body } = await pages().call('GET', path(SLUGS.active));
    expect(body).toContain('<dt>Amount</dt><dd>$25.00</dd>');
    expect(body).toContain('<dd>Research bounty &lt;b&gt;#12&lt;/b&gt;</dd>');
    expect(body).toContain('<dt>Claim before</dt><dd>2026-12-27 15:00 UTC</dd>');
    expect(body).toContain('Sandbox: test data, no real money');
    expect(body).not.toContain('name="recipientEmail"');
    expect(body).toContain(`<form method="post" action="${path(SLUGS.active)}?method=wallet"`);
    expect(body).toMatch(/<a href="[^"]+\?method=wallet" aria-current="page">Allowance wallet<\/a>/);
    expect(body).toMatch(/<input id="walletId" name="walletId"[^>]*required/);
    expect(body).toContain('<button type="submit">Claim $25.00</button>');
  });

  it('asks for the email address on a restricted link, and shows Live on a production link', async () => {
    const p = pages();
    expect((await p.call('GET', path(SLUGS.restricted))).body).toMatch(
      /<label for="recipientEmail">Email address.*<input id="recipientEmail" name="recipientEmail" type="email" autocomplete="email"/,
    );
    expect((await p.call('GET', path(SLUGS.usdc))).body).toContain('<span class="env env-live">Live</span>');
  });

  it('offers the bank account and the USDC address forms, with every field labelled', async () => {
    const p = pages();
    const bank = (await p.call('GET', path(SLUGS.active), { query: { method: 'bank' } })).body;
    for (const field of ['accountName', 'routingNumber', 'accountNumber'])
      expect(bank).toMatch(new RegExp(`<label for="${field}">[\\s\\S]*?<input id="${field}" name="${field}"`));
    expect(bank).toContain(`action="${path(SLUGS.active)}?method=bank"`);
    const usdc = (await p.call('GET', path(SLUGS.active), { query: { method: 'usdc' } })).body;
    expect(usdc).toContain('<select id="chain" name="chain">');
    expect(usdc).toContain('<option value="Ethereum" selected="">Ethereum</option>');
    expect(usdc).toMatch(/<input id="address" name="address"/);
  });

  it('draws a new idempotency key for each rendering of the form', async () => {
    const p = pages();
    const first = keyOf((await p.call('GET', path(SLUGS.active))).body);
    const second = keyOf((await p.call('GET', path(SLUGS.active))).body);
    expect(first).toMatch(/^page_[0-9A-Za-z]{22}$/);
    expect(second).not.toBe(first);
  });

  it('answers other methods than GET and POST with 405', async () => {
    const response = await pages().call('PUT', path(SLUGS.active));
    expect(response.statusCode).toBe(405);
    expectWellFormedPage(response);
  });
});

describe('hosted pages: claiming a payment link', () => {
  it('claims to a wallet without JavaScript: POST, 303 to the result, "sent to your wallet"', async () => {
    const p = pages();
    const response = await claim(p, SLUGS.active, 'wallet', { walletId: ` ${CLAIMANT_WALLET} ` });
    expect(response.statusCode).toBe(303);
    expect(response.headers.Location).toBe(`${path(SLUGS.active)}?claimed=wallet`);
    expect(p.state.claims).toEqual([
      {
        slug: SLUGS.active,
        body: { method: 'wallet', destination: { type: 'WALLET', walletId: CLAIMANT_WALLET } },
        idempotencyKey: expect.stringMatching(/^page_/),
      },
    ]);
    const result = await p.call('GET', path(SLUGS.active), { query: { claimed: 'wallet' } });
    expect(result.statusCode).toBe(200);
    expect(h1Of(result.body)).toBe('Sent to your wallet');
    expect(result.body).toContain('<div class="notice" role="status"><p>$25.00 is in your Allowance wallet now.</p>');
    expectWellFormedPage(result);
    // Anyone else opening the link later is told it was claimed.
    expect(h1Of((await p.call('GET', path(SLUGS.active))).body)).toBe('This link has been claimed');
  });

  it('claims to a bank account: the ach body, then "on its way"', async () => {
    const p = pages();
    const response = await claim(p, SLUGS.active, 'bank', {
      accountName: ' Dana Claimant ',
      routingNumber: '110 000 000',
      accountNumber: '0001-2345-6789',
    });
    expect(response.headers.Location).toBe(`${path(SLUGS.active)}?claimed=bank`);
    expect(p.state.claims[0]!.body).toEqual({
      method: 'ach',
      destination: {
        type: 'ACH',
        routingNumber: '110000000',
        accountNumber: '000123456789',
        accountName: 'Dana Claimant',
      },
    });
    const result = await p.call('GET', path(SLUGS.active), { query: { claimed: 'bank' } });
    expect(h1Of(result.body)).toBe('On its way to your bank account');
    expect(result.body).not.toContain('000123456789');
    expectWellFormedPage(result);
  });

  it('claims to a USDC address on the chosen network', async () => {
    const p = pages();
    const address = '0x52908400098527886E0F7030069857D2E4169EE7';
    const response = await claim(p, SLUGS.usdc, 'usdc', { address, chain: 'Base' });
    expect(response.headers.Location).toBe(`${path(SLUGS.usdc)}?claimed=usdc`);
    expect(p.state.claims[0]!.body).toEqual({
      method: 'usdc',
      destination: { type: 'USDC', address, chain: 'Base' },
    });
    const result = await p.call('GET', path(SLUGS.usdc), { query: { claimed: 'usdc' } });
    expect(h1Of(result.body)).toBe('On its way to your USDC address');
    expect(result.body).toContain('1250.50 USDC is on its way to your USDC address.');
  });

  it('claims once when the same form is sent twice (same hidden key): both answers lead to the result', async () => {
    const p = pages();
    const form = await p.call('GET', path(SLUGS.active));
    const send = { query: { method: 'wallet' }, form: { idempotencyKey: keyOf(form.body), walletId: CLAIMANT_WALLET } };
    const first = await p.call('POST', path(SLUGS.active), send);
    const second = await p.call('POST', path(SLUGS.active), send);
    for (const response of [first, second]) {
      expect(response.statusCode).toBe(303);
      expect(response.headers.Location).toBe(`${path(SLUGS.active)}?claimed=wallet`);
    }
    expect(p.state.claims).toHaveLength(1);
  });

  it.each([
    ['claimed', 'SETTLED', 'This link has been claimed', 200],
    ['expired', 'EXPIRED', 'This link has expired', 410],
    ['cancelled', 'CANCELLED', 'This link was cancelled', 410],
  ] as const)('sends the claim of a link %s meanwhile to the page, which says so', async (_, status, title, code) => {
    const p = pages();
    const form = await p.call('GET', path(SLUGS.active));
    p.state.links.get(SLUGS.active)!.view.status = status;
    const response = await p.call('POST', path(SLUGS.active), {
      query: { method: 'wallet' },
      form: { idempotencyKey: keyOf(form.body), walletId: CLAIMANT_WALLET },
    });
    expect([response.statusCode, response.headers.Location]).toEqual([303, path(SLUGS.active)]);
    const page = await p.call('GET', path(SLUGS.active));
    expect([page.statusCode, h1Of(page.body)]).toEqual([code, title]);
    expect(p.state.claims).toEqual([]);
  });

  it('says so in an alert when an ACTIVE link refuses the claim as INVALID_STATE, and claims nothing', async () => {
    const p = pages();
    p.state.railsClosed = true;
    const response = await claim(p, SLUGS.active, 'bank', {
      accountName: 'Dana Claimant',
      routingNumber: '110000000',
      accountNumber: '000123456789',
    });
    expect(response.statusCode).toBe(409);
    expect(alertOf(response.body)).toMatch(/^This payment can not be claimed this way right now/);
    expect(h1Of(response.body)).toBe('Claim $25.00');
    expectWellFormedPage(response);
    expect(p.state.claims).toEqual([]);
  });

  it('says a claim is in flight when the same form is still being handled', async () => {
    const p = pages();
    const response = await p.call('POST', path(SLUGS.active), {
      query: { method: 'wallet' },
      form: { idempotencyKey: IN_FLIGHT_KEY, walletId: CLAIMANT_WALLET },
    });
    expect(response.statusCode).toBe(409);
    expect(h1Of(response.body)).toBe('Your claim is being processed');
    expectWellFormedPage(response);
  });

  it('refuses a claim posted from another site, before any claim', async () => {
    const p = pages();
    const response = await p.call('POST', path(SLUGS.active), {
      query: { method: 'wallet' },
      form: { walletId: CLAIMANT_WALLET },
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(response.statusCode).toBe(403);
    expect(h1Of(response.body)).toBe('This form was sent from another site');
    expect(p.state.claims).toEqual([]);
  });
});

describe('hosted pages: a refused claim, in an alert naming the field', () => {
  it.each([
    ['an unknown wallet', CLAIMANT_WALLET.replace('Claimant', 'Stranger'), 404, /^Wallet ID: no wallet has this ID/],
    ['a frozen wallet', FROZEN_WALLET, 403, /^Wallet ID: this wallet can not receive money now/],
    ["the link's own wallet", LINK_WALLET, 400, /^Wallet ID: this is the wallet the link pays from/],
    ['no wallet id', '', 400, /^Wallet ID: is required\./],
  ])('%s', async (_, walletId, status, message) => {
    const p = pages();
    const response = await claim(p, SLUGS.active, 'wallet', { walletId });
    expect(response.statusCode).toBe(status);
    expect(h1Of(response.body)).toBe('Claim $25.00');
    expect(alertOf(response.body)).toMatch(message);
    expect(response.body).toMatch(/<input id="walletId" name="walletId"[^>]*aria-invalid="true"/);
    expectWellFormedPage(response);
    expect(p.state.claims).toEqual([]);
  });

  it('marks a refused routing number and never writes the account number back', async () => {
    const p = pages();
    const response = await claim(p, SLUGS.active, 'bank', {
      accountName: 'Dana Claimant',
      routingNumber: '110000001',
      accountNumber: '000123456789',
    });
    expect(response.statusCode).toBe(400);
    expect(alertOf(response.body)).toBe('Routing number: fails its checksum. Please check it and try again.');
    expect(response.body).toMatch(/<input id="routingNumber"[^>]*aria-invalid="true"/);
    expect(response.body).not.toContain('000123456789');
    expect(response.body).not.toContain('110000001');
    expect(response.body).toContain('value="Dana Claimant"');
    expectWellFormedPage(response);
  });

  it('marks a refused USDC address and keeps the network chosen', async () => {
    const response = await claim(pages(), SLUGS.active, 'usdc', { address: '0x1234', chain: 'Polygon' });
    expect(response.statusCode).toBe(400);
    expect(alertOf(response.body)).toMatch(/^USDC address: is not a valid address/);
    expect(response.body).toContain('<option value="Polygon" selected="">Polygon</option>');
    expect(response.body).toMatch(/<input id="address"[^>]*aria-invalid="true"/);
  });

  it('refuses an email the sender did not name, then claims with the right one', async () => {
    const p = pages();
    const refused = await claim(p, SLUGS.restricted, 'wallet', {
      recipientEmail: 'someone.else@example.com',
      walletId: CLAIMANT_WALLET,
    });
    expect(refused.statusCode).toBe(403);
    expect(alertOf(refused.body)).toMatch(/^Email address: this link is only for the recipients the sender named/);
    expect(refused.body).toMatch(/<input id="recipientEmail"[^>]*value="someone.else@example.com" aria-invalid="true"/);
    expect(p.state.claims).toEqual([]);
    // The form shown again is a new claim (a new key): the corrected email goes through.
    const retried = await p.call('POST', path(SLUGS.restricted), {
      query: { method: 'wallet' },
      form: {
        idempotencyKey: keyOf(refused.body),
        recipientEmail: ALLOWED_EMAIL.toUpperCase(),
        walletId: CLAIMANT_WALLET,
      },
    });
    expect(retried.statusCode).toBe(303);
    expect(p.state.claims[0]!.body).toEqual({
      method: 'wallet',
      destination: { type: 'WALLET', walletId: CLAIMANT_WALLET },
      recipientEmail: ALLOWED_EMAIL.toUpperCase(),
    });
  });

  it('lets a wallet the sender named claim a restricted link without an email', async () => {
    const response = await claim(pages(), SLUGS.restricted, 'wallet', { walletId: ALLOWED_WALLET });
    expect(response.statusCode).toBe(303);
  });

  it('shows the form again with a new key when an old key is sent with other details', async () => {
    const p = pages();
    const form = await p.call('GET', path(SLUGS.active));
    const key = keyOf(form.body);
    const unknown = { idempotencyKey: key, walletId: 'wal_Stranger0000000000001' };
    const first = await p.call('POST', path(SLUGS.active), { query: { method: 'wallet' }, form: unknown });
    expect(first.statusCode).toBe(404);
    const reused = await p.call('POST', path(SLUGS.active), {
      query: { method: 'wallet' },
      form: { idempotencyKey: key, walletId: CLAIMANT_WALLET },
    });
    expect(reused.statusCode).toBe(409);
    expect(alertOf(reused.body)).toBe(
      'This form was already sent with other details. Please check the details and send it again.',
    );
    expect(keyOf(reused.body)).not.toBe(key);
    expect(p.state.claims).toEqual([]);
  });
});

describe('hosted pages: what a claim page never shows', () => {
  it("never shows the link's wallet, metadata or restriction lists, on any page of any state", async () => {
    const p = pages();
    for (const slug of Object.values(SLUGS))
      for (const method of ['wallet', 'bank', 'usdc']) await p.call('GET', path(slug), { query: { method } });
    await claim(p, SLUGS.active, 'wallet', { walletId: LINK_WALLET });
    await claim(p, SLUGS.restricted, 'wallet', { walletId: CLAIMANT_WALLET, recipientEmail: 'x@example.com' });
    await claim(p, SLUGS.active, 'wallet', { walletId: CLAIMANT_WALLET });
    await p.call('GET', path(SLUGS.active), { query: { claimed: 'wallet' } });
    expect(p.html.length).toBeGreaterThan(25);
    for (const body of p.html) {
      for (const secret of [LINK_WALLET, LINK_METADATA_VALUE, 'orderRef', ALLOWED_EMAIL, ALLOWED_WALLET, 'txn_'])
        expect(body).not.toContain(secret);
    }
  });
});
