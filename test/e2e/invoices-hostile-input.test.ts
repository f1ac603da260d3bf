import { randomBytes } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLogs, type LogCapture } from '../fixtures/log-capture.js';
import { ENV } from '../../shared/config/env-names.js';
import { startTestService, type ApiResponse, type TestService } from '../fixtures/local-service.js';
import { activateProduction, createApiKey, type Organization } from '../fixtures/organizations.js';
import { expectOk, expectApiError, ledgerClient, type LedgerClient } from '../fixtures/payments-client.js';

/** Over HTTP: a hostile client, tenant and customer against the invoice routes, the public pay routes and the hosted pages. */
const CARD_NUMBER = '4242424242424242';
const DECLINED_NUMBER = '4000000000000002';
const BAD_LUHN = '4242424242424241';
const CARD = { type: 'card', number: CARD_NUMBER, expMonth: 12, expYear: 2030, cvc: '123' };
const AGENT_PERMISSIONS = ['wallets:read', 'invoices:read', 'invoices:write'];
const EVIL = '<script>alert(1)</script><img src=x onerror=alert(2)>';

describe('invoices and hosted pages under hostile input', () => {
  let service: TestService;
  let api: LedgerClient;
  let org: Organization;
  let other: Organization;
  const seen: string[] = [];
  let logs: LogCapture | undefined;

  const call = async (method: string, path: string, options: { key?: string; body?: unknown } = {}) => {
    const response: ApiResponse = await service.call(method, path, options);
    seen.push(response.text);
    return response;
  };
  const ok = expectOk;
  const error = expectApiError;
  /** A hosted page as a browser asks for it (HTML; no JSON schema). */
  const page = async (
    method: string,
    path: string,
    init: { form?: Record<string, string>; headers?: Record<string, string> } = {},
  ) => {
    const headers: Record<string, string> = { ...(init.headers ?? {}) };
    let body: string | undefined;
    if (init.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(init.form).toString();
    }
    const response = await fetch(service.baseUrl + path, {
      method,
      headers,
      redirect: 'manual',
      ...(body ? { body } : {}),
    });
    const text = await response.text();
    seen.push(text);
    return { status: response.status, headers: response.headers, text };
  };
  const expectPageHeaders = (headers: Headers, what: string) => {
    const csp = headers.get('content-security-policy') ?? '';
    expect(csp, what).toContain("default-src 'none'");
    expect(csp, what).toContain("frame-ancestors 'none'");
    expect(csp, what).not.toContain('unsafe-inline');
    expect(headers.get('cache-control'), what).toBe('no-store');
    expect(headers.get('referrer-policy'), what).toBe('no-referrer');
    expect(headers.get('x-content-type-options'), what).toBe('nosniff');
  };
  const newWallet = async (key: string, name: string) =>
    ok(await call('POST', '/v1/wallets', { key, body: { name } }), 201).id as string;
  const newCustomer = async (key: string, email: string, name = 'Jane Doe') =>
    ok(await call('POST', '/v1/customers', { key, body: { email, name } }), 201).id as string;
  const invoiceBody = (walletId: string, customerId: string, extra: Record<string, unknown> = {}) => ({
    walletId,
    customerId,
    lineItems: [{ description: 'Widgets', quantity: 2, unitPrice: '10.00' }],
    ...extra,
  });
  const finalized = async (key: string, walletId: string, customerId: string, extra: Record<string, unknown> = {}) => {
    const draft = ok(await call('POST', '/v1/invoices', { key, body: invoiceBody(walletId, customerId, extra) }), 201);
    return ok(await call('POST', `/v1/invoices/${draft.id}/finalize`, { key }));
  };

  beforeAll(async () => {
    service = await startTestService({
      [ENV.dataEncryptionKey]: randomBytes(32).toString('hex'),
      // Many public calls from one IP in bursts: the per-IP limit is not what this file tests.
      [ENV.publicRateLimitPerSecond]: '1000',
    });
    api = ledgerClient(service);
    org = await service.createOrganization(`Acme ${EVIL}`);
    other = await service.createOrganization('Other Org');
    logs = captureLogs(seen);
  });
  afterAll(async () => {
    logs?.restore();
    await service.close();
  });

  it("an agent key reaches only its own wallet's invoices on every route (404, never 403 or data)", async () => {
    const agent = ok(
      await call('POST', '/v1/agents', { key: org.key, body: { name: 'Biller', permissions: AGENT_PERMISSIONS } }),
      201,
    );
    const agentKey = agent.apiKey as string;
    const agentWallet = agent.id as string;
    const orgWallet = await newWallet(org.key, 'Org billing');
    const orgCustomer = await newCustomer(org.key, 'org-cust@example.com');
    const agentCustomer = await newCustomer(agentKey, 'agent-cust@example.com');
    const foreign = await finalized(org.key, orgWallet, orgCustomer);
    // Create for another wallet, or with a customer it can not see.
    error(
      await call('POST', '/v1/invoices', { key: agentKey, body: invoiceBody(orgWallet, agentCustomer) }),
      404,
      'WALLET_NOT_FOUND',
    );
    error(
      await call('POST', '/v1/invoices', { key: agentKey, body: invoiceBody(agentWallet, orgCustomer) }),
      404,
      'CUSTOMER_NOT_FOUND',
    );
    error(await call('GET', `/v1/invoices?walletId=${orgWallet}`, { key: agentKey }), 404, 'WALLET_NOT_FOUND');
    const listed = ok(await call('GET', `/v1/invoices?customerId=${orgCustomer}`, { key: agentKey }));
    expect(listed.data).toEqual([]);
    for (const [method, path] of [
      ['GET', `/v1/invoices/${foreign.id}`],
      ['POST', `/v1/invoices/${foreign.id}/finalize`],
      ['POST', `/v1/invoices/${foreign.id}/void`],
      ['POST', `/v1/invoices/${foreign.id}/refund`],
      ['POST', `/v1/invoices/${foreign.id}/checkout`],
    ] as const) {
      error(await call(method, path, { key: agentKey }), 404, 'INVOICE_NOT_FOUND');
      error(await call(method, path, { key: other.key }), 404, 'INVOICE_NOT_FOUND');
    }
    // A charge into another wallet, or on a customer of another organization.
    error(
      await call('POST', '/v1/invoices/charge', {
        key: agentKey,
        body: { walletId: orgWallet, customerId: agentCustomer, amount: '5.00', description: 'x' },
      }),
      404,
      'WALLET_NOT_FOUND',
    );
    const otherWallet = await newWallet(other.key, 'Other billing');
    error(
      await call('POST', '/v1/invoices', { key: other.key, body: invoiceBody(otherWallet, orgCustomer) }),
      404,
      'CUSTOMER_NOT_FOUND',
    );
    // Its own: fine.
    const mine = await finalized(agentKey, agentWallet, agentCustomer);
    expect(mine.status).toBe('FINALIZED');
    expect(ok(await call('GET', '/v1/invoices', { key: agentKey })).data.map((i: { id: string }) => i.id)).toEqual([
      mine.id,
    ]);
  });

  it('invoices:read can not write; a key without invoices:read can not read', async () => {
    const walletId = await newWallet(org.key, 'Perms');
    const customerId = await newCustomer(org.key, 'perms@example.com');
    const invoice = await finalized(org.key, walletId, customerId);
    const reader = await createApiKey(service, org, { name: 'reader', permissions: ['invoices:read'] });
    const nobody = await createApiKey(service, org, { name: 'nobody', permissions: ['wallets:read'] });
    expect(ok(await call('GET', `/v1/invoices/${invoice.id}`, { key: reader.key })).id).toBe(invoice.id);
    for (const [method, path] of [
      ['POST', `/v1/invoices/${invoice.id}/void`],
      ['POST', `/v1/invoices/${invoice.id}/checkout`],
      ['POST', `/v1/invoices/${invoice.id}/refund`],
    ] as const)
      expect((await call(method, path, { key: reader.key })).status).toBe(403);
    expect(
      (await call('POST', '/v1/invoices', { key: reader.key, body: invoiceBody(walletId, customerId) })).status,
    ).toBe(403);
    expect((await call('GET', `/v1/invoices/${invoice.id}`, { key: nobody.key })).status).toBe(403);
    expect((await call('GET', '/v1/invoices', { key: nobody.key })).status).toBe(403);
  });

  it("charges only the customer's own methods; one idempotency key in two organizations never collides; a decline replays as the same 402", async () => {
    const walletId = await newWallet(org.key, 'Charges');
    const alice = await newCustomer(org.key, 'alice@example.com');
    const bob = await newCustomer(org.key, 'bob@example.com');
    const bobMethod = ok(
      await call('POST', `/v1/test-helpers/customers/${bob}/payment-methods`, { key: org.key, body: {} }),
      201,
    );
    ok(
      await call('POST', `/v1/test-helpers/customers/${alice}/payment-methods`, {
        key: org.key,
        body: { type: 'card', number: DECLINED_NUMBER },
      }),
      201,
    );
    const body = {
      walletId,
      customerId: alice,
      amount: '12.34',
      description: 'Hostile',
      idempotencyKey: 'shared-key-1',
    };
    error(
      await call('POST', '/v1/invoices/charge', {
        key: org.key,
        body: { ...body, paymentMethodId: bobMethod.id, idempotencyKey: 'pm-steal' },
      }),
      404,
      'PAYMENT_METHOD_NOT_FOUND',
    );
    const declined = await call('POST', '/v1/invoices/charge', { key: org.key, body });
    error(declined, 402, 'PAYMENT_DECLINED');
    const replay = await call('POST', '/v1/invoices/charge', { key: org.key, body });
    expect(replay.status).toBe(402);
    expect(replay.body).toEqual(declined.body);
    error(
      await call('POST', '/v1/invoices/charge', { key: org.key, body: { ...body, amount: '12.35' } }),
      409,
      'IDEMPOTENCY_KEY_REUSE',
    );
    // The same key in another organization: its own charge.
    const otherWallet = await newWallet(other.key, 'Other charges');
    const carol = await newCustomer(other.key, 'carol@example.com');
    ok(await call('POST', `/v1/test-helpers/customers/${carol}/payment-methods`, { key: other.key, body: {} }), 201);
    const theirs = ok(
      await call('POST', '/v1/invoices/charge', {
        key: other.key,
        body: { ...body, walletId: otherWallet, customerId: carol },
      }),
      201,
    );
    expect(theirs).toMatchObject({ status: 'PAID', walletId: otherWallet, total: '12.34' });
    expect(theirs.id).not.toBe(declined.body.error.details.invoiceId);
    await api.expectLedgerBalanced();
  });

  it('refuses hostile input by field (an impossible dueDate such as 2026-02-30 included), never a 500', async () => {
    const walletId = await newWallet(org.key, 'Inputs');
    const customerId = await newCustomer(org.key, 'inputs@example.com');
    const line = (over: Record<string, unknown>) => ({ lineItems: [{ description: 'x', unitPrice: '1.00', ...over }] });
    const cases: Record<string, unknown>[] = [
      line({ quantity: 0 }),
      line({ quantity: 1.5 }),
      line({ quantity: -1 }),
      line({ quantity: 10_001 }),
      line({ quantity: '2' }),
      line({ unitPrice: '1.001' }),
      line({ unitPrice: '-5.00' }),
      line({ unitPrice: '1e3' }),
      line({ unitPrice: 5 }),
      line({ unitPrice: '0.00' }),
      line({ unitPrice: '0.99' }),
      line({ unitPrice: '1000000000.01' }),
      line({ unitPrice: '100000.00', quantity: 10_001 }),
      line({ unitPrice: 'NaN' }),
      line({ unitPrice: ' 1.00' }),
      line({ description: '' }),
      line({ description: 'x'.repeat(1025) }),
      line({ description: 'bell\u0007' }),
      line({ description: 'nul\u0000' }),
      line({ extra: true }),
      { lineItems: Array.from({ length: 101 }, () => ({ description: 'x', unitPrice: '1.00' })) },
      { lineItems: [] },
      { lineItems: 'x' },
      { memo: 'm'.repeat(2049) },
      { memo: 'ctl\u001b[31m' },
      { dueDate: 'tomorrow' },
      { dueDate: '2026-13-01' },
      { dueDate: '2026-02-30' },
      { dueDate: '2026-12-15T25:00:00Z' },
      { dueDate: 20261215 },
      { metadata: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v'])) },
      { metadata: { k: 'v'.repeat(501) } },
      { metadata: { k: { nested: true } } },
      { metadata: [] },
      { surprise: 1 },
      { customerId: 'c'.repeat(129) },
      { walletId: 'wal_' + 'x'.repeat(300) },
    ];
    const answers: string[] = [];
    for (const extra of cases) {
      const response = await call('POST', '/v1/invoices', {
        key: org.key,
        body: { ...invoiceBody(walletId, customerId), ...extra },
      });
      const answer = `${JSON.stringify(extra).slice(0, 60)} -> ${response.status} ${response.body?.error?.code ?? ''} ${response.body?.error?.details?.field ?? ''}`;
      if (response.status < 400 || response.status >= 500) answers.push(answer);
    }
    // Every case refused with a 4xx naming the field ('2026-02-30', a day February never has, included).
    expect(answers).toEqual([]);
    // Exactly at the bounds: accepted, exact.
    const big = ok(
      await call('POST', '/v1/invoices', {
        key: org.key,
        body: {
          ...invoiceBody(walletId, customerId),
          lineItems: [{ description: 'd'.repeat(1024), quantity: 10_000, unitPrice: '100000.00' }],
        },
      }),
      201,
    );
    expect(big.total).toBe('1000000000.00');
    const many = ok(
      await call('POST', '/v1/invoices', {
        key: org.key,
        body: {
          ...invoiceBody(walletId, customerId),
          lineItems: Array.from({ length: 100 }, () => ({ description: 'x', quantity: 3, unitPrice: '0.01' })),
        },
      }),
      201,
    );
    expect(many.total).toBe('3.00');
    // Charge inputs.
    for (const amount of ['0.99', '1.001', -1, '1e3', 'abc', 1e21, null, '1000000000.01'])
      expect(
        (
          await call('POST', '/v1/invoices/charge', {
            key: org.key,
            body: { walletId, customerId, amount, description: 'x' },
          })
        ).status,
      ).toBe(400);
    // Odd ids on every route: 404, never a 500.
    for (const id of ['inv_%00', 'inv_' + 'z'.repeat(300), '..%2F..%2Fv1', 'inv_%E2%80%AE', '%C0%AF'])
      for (const [method, path] of [
        ['GET', `/v1/invoices/${id}`],
        ['POST', `/v1/invoices/${id}/refund`],
        ['GET', `/v1/invoices/pay/${id}`],
        ['POST', `/v1/invoices/pay/${id}/checkout`],
      ] as const) {
        const response = await call(method, path, method === 'GET' ? { key: org.key } : { key: org.key });
        expect(response.status, `${method} ${path}: ${response.text}`).toBeLessThan(500);
      }
  });

  it('the public view and every hosted page (error pages included) show no ids, wallet, metadata or other customers, carry the page headers, never a 500', async () => {
    const walletId = await newWallet(org.key, 'Pages');
    const customerId = await newCustomer(org.key, 'pages@example.com', `Eve ${EVIL}`);
    const neighbour = await newCustomer(org.key, 'neighbour@example.com', 'Neighbour Secretname');
    await finalized(org.key, walletId, neighbour, { memo: 'Neighbour memo' });
    const invoice = await finalized(org.key, walletId, customerId, {
      memo: `Memo ${EVIL}`,
      metadata: { internal: 'top-secret-metadata' },
      lineItems: [{ description: `Line ${EVIL}`, quantity: 3, unitPrice: '33.33' }],
    });
    // A DRAFT has no slug, no public route.
    const draft = ok(
      await call('POST', '/v1/invoices', { key: org.key, body: invoiceBody(walletId, customerId) }),
      201,
    );
    expect(draft.slug).toBeNull();
    expect(invoice.slug).toMatch(/^[A-Za-z0-9]{22,}$/);
    const slug = invoice.slug as string;
    const publicView = ok(await call('GET', `/v1/invoices/pay/${slug}`));
    const publicText = JSON.stringify(publicView);
    for (const secret of [
      walletId,
      customerId,
      invoice.id,
      'top-secret-metadata',
      org.organizationId,
      'Neighbour',
      'pages@example.com',
    ])
      expect(publicText).not.toContain(secret);
    const pages = [
      `/hosted/invoices/${slug}`,
      `/hosted/invoices/${slug}/checkout`,
      `/hosted/invoices/${slug}/checkout?method=bank`,
      `/hosted/invoices/${slug}/receipt`,
      '/hosted/invoices/noSuchSlug00000000000000',
      '/hosted/invoices/%3Cscript%3E',
      '/hosted/invoices/' + 'a'.repeat(5000),
      '/hosted/invoices/..%2F..%2Fv1%2Fwallets',
      '/hosted/invoices/%00%0d%0aSet-Cookie:%20x=1',
      '/hosted/%E2%80%AE',
      '/hosted/',
      '/hosted',
      '/hosted/payment-methods/zzzzzzzzzzzz',
    ];
    for (const path of pages) {
      const answer = await page('GET', path);
      expect(answer.status, `${path}: ${answer.text.slice(0, 200)}`).toBeLessThan(500);
      expectPageHeaders(answer.headers, path);
      expect(answer.headers.get('set-cookie'), path).toBeNull();
      for (const secret of [
        walletId,
        customerId,
        invoice.id,
        'top-secret-metadata',
        org.organizationId,
        'Neighbour',
        'pages@example.com',
      ])
        expect(answer.text, `${path} shows ${secret}`).not.toContain(secret);
      expect(answer.text, path).not.toContain('<script>alert');
      expect(answer.text, path).not.toContain('<img src=x');
      expect(answer.text, path).not.toMatch(/<script(?![^>]*type="module" src="\/hosted\/)/);
      expect(answer.text, path).not.toMatch(/\sstyle=|<style/);
    }
    // Other methods.
    for (const method of ['PUT', 'DELETE', 'PATCH']) {
      const answer = await page(method, `/hosted/invoices/${slug}/checkout`);
      expect(answer.status, method).toBeLessThan(500);
      expectPageHeaders(answer.headers, method);
    }
  });

  it('a cross-site form post never pays; a card number is never echoed, stored or logged', async () => {
    const walletId = await newWallet(org.key, 'Forms');
    const customerId = await newCustomer(org.key, 'forms@example.com');
    const invoice = await finalized(org.key, walletId, customerId);
    const checkout = `/hosted/invoices/${invoice.slug}/checkout`;
    const form = { number: CARD_NUMBER, expMonth: '12', expYear: '30', cvc: '123' };
    for (const headers of [
      { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
      { 'sec-fetch-site': 'same-site', origin: 'https://sub.evil.example' },
      { origin: 'https://evil.example' },
      { origin: 'null' },
    ] as Record<string, string>[]) {
      const answer = await page('POST', checkout, { form, headers });
      expect(answer.status, JSON.stringify(headers)).toBeGreaterThanOrEqual(400);
      expectPageHeaders(answer.headers, JSON.stringify(headers));
    }
    expect(ok(await call('GET', `/v1/invoices/${invoice.id}`, { key: org.key })).status).toBe('FINALIZED');
    // Refused numbers: the page says why, never the number.
    for (const number of [DECLINED_NUMBER, BAD_LUHN, `${CARD_NUMBER}9999`]) {
      const answer = await page('POST', checkout, {
        form: { ...form, number },
        headers: { 'sec-fetch-site': 'same-origin' },
      });
      expect(answer.status, number).toBeGreaterThanOrEqual(400);
      expect(answer.status, number).toBeLessThan(500);
      expectPageHeaders(answer.headers, number);
      expect(answer.text).not.toContain(number);
      const api = await call('POST', `/v1/invoices/pay/${invoice.slug}/payments`, { body: { ...CARD, number } });
      expect(api.status).toBeGreaterThanOrEqual(400);
      expect(api.text).not.toContain(number);
    }
    ok(await call('POST', `/v1/invoices/pay/${invoice.slug}/payments`, { body: CARD }));
    error(await call('POST', `/v1/invoices/pay/${invoice.slug}/payments`, { body: CARD }), 409, 'INVALID_STATE');
    error(await call('POST', `/v1/invoices/pay/${invoice.slug}/checkout`), 409, 'INVALID_STATE');
    await api.expectLedgerBalanced();

    await service.projected();
    const items: unknown[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const output = await service.table.client.send(
        new ScanCommand({ TableName: service.table.tableName, ...(startKey ? { ExclusiveStartKey: startKey } : {}) }),
      );
      items.push(...(output.Items ?? []));
      startKey = output.LastEvaluatedKey;
    } while (startKey);
    const stored = JSON.stringify(items);
    expect(stored).toContain('invoice.paid');
    for (const number of [CARD_NUMBER, DECLINED_NUMBER, BAD_LUHN]) {
      expect(stored).not.toContain(number);
      expect(seen.filter((text) => text.includes(number) && !text.startsWith('{"type":"card"'))).toEqual([]);
    }
  });

  it("the invoice's hostedUrl is a working page: shown (names escaped), paid by card through the checkout form, receipt", async () => {
    const walletId = await newWallet(org.key, 'Hosted pay');
    const customerId = await newCustomer(org.key, 'hosted-pay@example.com', `Eve ${EVIL}`);
    const invoice = await finalized(org.key, walletId, customerId, {
      memo: `Memo ${EVIL}`,
      lineItems: [{ description: `Line ${EVIL}`, quantity: 3, unitPrice: '33.33' }],
    });
    const hostedPath = new URL(invoice.hostedUrl as string).pathname;
    const shown = await page('GET', hostedPath);
    expect(shown.status, shown.text.slice(0, 400)).toBe(200);
    expect(shown.text).toContain('99.99');
    expect(shown.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(shown.text).not.toContain('<script>alert');
    const checkout = `/hosted/invoices/${invoice.slug}/checkout`;
    expect((await page('GET', checkout)).status).toBe(200);
    const form = { number: CARD_NUMBER, expMonth: '12', expYear: '30', cvc: '123' };
    const declined = await page('POST', checkout, {
      form: { ...form, number: DECLINED_NUMBER },
      headers: { 'sec-fetch-site': 'same-origin' },
    });
    expect(declined.status).toBe(402);
    expect(declined.text).toContain('role="alert"');
    expect(declined.text).not.toContain(DECLINED_NUMBER);
    const paid = await page('POST', checkout, { form, headers: { 'sec-fetch-site': 'same-origin' } });
    expect(paid.status).toBe(303);
    // Only ever this invoice's own receipt (a path on this origin): no open redirect.
    expect(paid.headers.get('location')).toBe(`/hosted/invoices/${invoice.slug}/receipt`);
    expect(ok(await call('GET', `/v1/invoices/${invoice.id}`, { key: org.key })).status).toBe('PAID');
    const receipt = await page('GET', `/hosted/invoices/${invoice.slug}/receipt`);
    expect(receipt.status).toBe(200);
    expectPageHeaders(receipt.headers, 'receipt');
    expect(receipt.text).not.toContain(CARD_NUMBER);
    await api.expectLedgerBalanced();
  });

  it('the largest invoice the schema admits (100 lines of 1,024 CJK characters, memo, metadata) is created, finalized and paid, never a 500', async () => {
    const walletId = await newWallet(org.key, 'Largest');
    const customerId = await newCustomer(org.key, 'largest@example.com');
    const wide = (n: number) => '\u6f22'.repeat(n);
    const body = {
      walletId,
      customerId,
      lineItems: Array.from({ length: 100 }, () => ({
        description: wide(1024),
        quantity: 10_000,
        unitPrice: '999.99',
      })),
      memo: wide(2048),
      metadata: Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`${wide(38)}${i}`.slice(0, 40), wide(500)])),
    };
    const draft = ok(await call('POST', '/v1/invoices', { key: org.key, body }), 201);
    expect(draft.total).toBe('999990000.00');
    const invoice = ok(await call('POST', `/v1/invoices/${draft.id}/finalize`, { key: org.key }));
    ok(await call('GET', `/v1/invoices/pay/${invoice.slug}`));
    const paid = ok(await call('POST', `/v1/invoices/pay/${invoice.slug}/payments`, { body: CARD }));
    expect(paid.status).toBe('PAID');
    // 999,990,000.00 by card: 2.9% + 0.30 = 28,999,710.30; 0.5% = 4,999,950.00.
    expect(ok(await call('GET', `/v1/invoices/${draft.id}`, { key: org.key }))).toMatchObject({
      fees: { provider: '28999710.30', service: '4999950.00' },
      netAmount: '965990339.70',
    });
    await api.expectLedgerBalanced();
  });

  it('a production key on a sandbox invoice: 403 ENVIRONMENT_MISMATCH on every route, none listed', async () => {
    const walletId = await newWallet(other.key, 'Env');
    const customerId = await newCustomer(other.key, 'env@example.com');
    const invoice = await finalized(other.key, walletId, customerId);
    await activateProduction(service, other);
    const live = (
      await createApiKey(service, other, {
        permissions: ['invoices:read', 'invoices:write', 'wallets:read'],
        environment: 'PRODUCTION',
      })
    ).key;
    for (const [method, path] of [
      ['GET', `/v1/invoices/${invoice.id}`],
      ['POST', `/v1/invoices/${invoice.id}/finalize`],
      ['POST', `/v1/invoices/${invoice.id}/void`],
      ['POST', `/v1/invoices/${invoice.id}/refund`],
      ['POST', `/v1/invoices/${invoice.id}/checkout`],
    ] as const)
      error(await call(method, path, { key: live }), 403, 'ENVIRONMENT_MISMATCH');
    expect(ok(await call('GET', '/v1/invoices', { key: live })).data).toEqual([]);
    const created = await call('POST', '/v1/invoices', { key: live, body: invoiceBody(walletId, customerId) });
    expect([403, 404], created.text).toContain(created.status);
    expect(ok(await call('GET', `/v1/invoices/${invoice.id}`, { key: other.key })).status).toBe('FINALIZED');
  });

  it('over DynamoDB: two card payments at once post once; two refunds at once refund once; the ledger balances', async () => {
    const walletId = await newWallet(org.key, 'Races');
    const customerId = await newCustomer(org.key, 'races@example.com');
    const invoice = await finalized(org.key, walletId, customerId);
    const pays = await Promise.all(
      Array.from({ length: 3 }, () => call('POST', `/v1/invoices/pay/${invoice.slug}/payments`, { body: CARD })),
    );
    expect(pays.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    // 20.00 by card: 0.88 + 0.10: net 19.02, credited once.
    expect(ok(await call('GET', `/v1/wallets/${walletId}`, { key: org.key })).balance).toBe('19.02000000');
    await api.fund(org.key, walletId, '5.00');
    const refunds = await Promise.all(
      Array.from({ length: 3 }, () => call('POST', `/v1/invoices/${invoice.id}/refund`, { key: org.key })),
    );
    expect(refunds.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    expect(ok(await call('GET', `/v1/wallets/${walletId}`, { key: org.key })).balance).toBe('4.02000000');
    await api.expectLedgerBalanced();
  });

  it('voided and uncollectible invoices can not be paid on the page or the API; a bank debit in flight blocks a card', async () => {
    const walletId = await newWallet(org.key, 'States');
    const customerId = await newCustomer(org.key, 'states@example.com');
    const voided = await finalized(org.key, walletId, customerId);
    ok(await call('POST', `/v1/invoices/${voided.id}/void`, { key: org.key }));
    error(await call('POST', `/v1/invoices/pay/${voided.slug}/payments`, { body: CARD }), 409, 'INVALID_STATE');
    const voidedPage = await page('POST', `/hosted/invoices/${voided.slug}/checkout`, {
      form: { number: CARD_NUMBER, expMonth: '12', expYear: '30', cvc: '123' },
      headers: { 'sec-fetch-site': 'same-origin' },
    });
    expect(voidedPage.status).toBeGreaterThanOrEqual(400);
    expectPageHeaders(voidedPage.headers, 'voided');
    const bank = await finalized(org.key, walletId, customerId);
    const pending = ok(
      await call('POST', `/v1/invoices/pay/${bank.slug}/payments`, {
        body: {
          type: 'us_bank_account',
          routingNumber: '110000000',
          accountNumber: '000123456789',
          accountHolderName: 'Jane',
          accountType: 'checking',
        },
      }),
    );
    expect(pending).toMatchObject({ status: 'FINALIZED', pendingPayment: { paymentMethodType: 'us_bank_account' } });
    error(await call('POST', `/v1/invoices/pay/${bank.slug}/payments`, { body: CARD }), 409, 'INVALID_STATE');
    error(await call('POST', `/v1/invoices/${bank.id}/void`, { key: org.key }), 409, 'INVALID_STATE');
    expect(JSON.stringify(pending)).not.toContain('000123456789');
    await api.expectLedgerBalanced();
  });
});
