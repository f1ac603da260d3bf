import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ENV } from '../../shared/config/env-names.js';
import type { ApiResponse } from '../fixtures/local-service.js';
import { setupE2e } from '../fixtures/e2e-setup.js';
import { callTool, connectMcp, expectToolError, TEST_MCP_TOKEN } from '../fixtures/mcp-client.js';
import { activateProduction, createApiKey, expectError, expectValidationError } from '../fixtures/organizations.js';

/**
 * The customers area against a hostile client or tenant over HTTP (issue 21): environments,
 * tenancy, authority, races, links and inputs.
 */
describe('customers under attack', () => {
  const e2e = setupE2e({
    env: {
      [ENV.dataEncryptionKey]: randomBytes(32).toString('hex'),
      [ENV.mcpAuthToken]: TEST_MCP_TOKEN,
      // Many public calls in a burst from one address: the per-IP limit is not what this file tests.
      [ENV.publicRateLimitPerSecond]: '1000',
    },
    organizations: { org: 'Review Billing', other: 'Hostile Org' },
  });
  const CARD = '4242424242424242';
  const card = (number = CARD) => ({ type: 'card', number, expMonth: 12, expYear: 2031, cvc: '123' });
  const tokenOf = (url: string) => new URL(url).pathname.split('/').pop()!;
  let emails = 0;
  const email = () => `review${++emails}-${randomBytes(3).toString('hex')}@example.com`;

  const call = (method: string, path: string, options: { key?: string; body?: unknown } = {}) =>
    e2e.service.call(method, path, options);
  const createCustomer = async (key: string, body: Record<string, unknown> = {}) => {
    const response = await call('POST', '/v1/customers', { key, body: { email: email(), name: 'Target', ...body } });
    expect(response.status, response.text).toBe(201);
    return response.body as { id: string; walletId: string | null };
  };
  const attach = async (key: string, customerId: string, body: Record<string, unknown> = {}) => {
    const response = await call('POST', `/v1/test-helpers/customers/${customerId}/payment-methods`, { key, body });
    expect(response.status, response.text).toBe(201);
    return response.body as { id: string; isDefault: boolean };
  };
  const setupToken = async (key: string, customerId: string) => {
    const response = await call('POST', `/v1/customers/${customerId}/payment-methods/setup`, { key });
    expect(response.status, response.text).toBe(201);
    return tokenOf(response.body.url);
  };
  const noServerError = (response: ApiResponse) => expect(response.status, response.text).toBeLessThan(500);
  let liveKey: Promise<string> | undefined;
  /** A PRODUCTION key with the invoices permissions (production activated once for the file). */
  const live = () =>
    (liveKey ??= activateProduction(e2e.service, e2e.org).then(
      async () =>
        (
          await createApiKey(e2e.service, e2e.org, {
            permissions: ['invoices:read', 'invoices:write'],
            environment: 'PRODUCTION',
          })
        ).key,
    ));

  // ---- Secrets / environments ----------------------------------------------------------------

  it('refuses PRODUCTION setup links and sandbox test cards while no live processor is configured', async () => {
    const liveKey = await live();
    const customer = await createCustomer(liveKey);
    // 4242 4242 4242 4242 is a public test number: in PRODUCTION it must never become a chargeable
    // method. Like cards and transfers, PRODUCTION answers the unconfigured processor's refusal.
    for (const path of ['payment-methods/setup', 'payment-update-url']) {
      const link = await call('POST', `/v1/customers/${customer.id}/${path}`, { key: liveKey });
      expect(expectError(link, 409, 'INVALID_STATE').details).toEqual({ processor: 'not_configured' });
    }
    const methods = await call('GET', `/v1/customers/${customer.id}/payment-methods`, { key: liveKey });
    expect(methods.body.data).toEqual([]);
  });

  it('answers a PRODUCTION key ENVIRONMENT_MISMATCH on every route of a sandbox customer', async () => {
    const customer = await createCustomer(e2e.org.key);
    const method = await attach(e2e.org.key, customer.id);
    const liveKey = await live();
    const calls: [string, string, unknown?][] = [
      ['GET', `/v1/customers/${customer.id}`],
      ['PATCH', `/v1/customers/${customer.id}`, { name: 'x' }],
      ['GET', `/v1/customers/${customer.id}/payment-methods`],
      ['POST', `/v1/customers/${customer.id}/payment-methods/setup`],
      ['POST', `/v1/customers/${customer.id}/payment-update-url`],
      ['DELETE', `/v1/customers/${customer.id}/payment-methods/${method.id}`],
    ];
    for (const [verb, path, body] of calls)
      expectError(await call(verb, path, { key: liveKey, ...(body ? { body } : {}) }), 403, 'ENVIRONMENT_MISMATCH');
    const listed = await call('GET', `/v1/customers?limit=100`, { key: liveKey });
    expect(listed.body.data.map((c: { id: string }) => c.id)).not.toContain(customer.id);
  });

  // ---- Tenancy and authority -----------------------------------------------------------------

  it("keeps an agent key out of another wallet's customer on every route (404), and out of its events", async () => {
    const perms = ['wallets:read', 'invoices:read', 'invoices:write'];
    const a = await call('POST', '/v1/agents', { key: e2e.org.key, body: { name: 'Agent A', permissions: perms } });
    const b = await call('POST', '/v1/agents', { key: e2e.org.key, body: { name: 'Agent B', permissions: perms } });
    expect(a.status, a.text).toBe(201);
    const victim = await createCustomer(a.body.apiKey, { metadata: { secret: 'agent-a-only' } });
    const method = await attach(a.body.apiKey, victim.id);
    const calls: [string, string, unknown?][] = [
      ['GET', `/v1/customers/${victim.id}`],
      ['PATCH', `/v1/customers/${victim.id}`, { name: 'Stolen' }],
      ['GET', `/v1/customers/${victim.id}/payment-methods`],
      ['POST', `/v1/customers/${victim.id}/payment-methods/setup`],
      ['POST', `/v1/customers/${victim.id}/payment-update-url`],
      ['DELETE', `/v1/customers/${victim.id}/payment-methods/${method.id}`],
      ['POST', `/v1/test-helpers/customers/${victim.id}/payment-methods`, {}],
    ];
    for (const [verb, path, body] of calls) {
      const response = await call(verb, path, { key: b.body.apiKey, ...(body !== undefined ? { body } : {}) });
      expectError(response, 404, 'CUSTOMER_NOT_FOUND');
      expect(response.text).not.toContain('agent-a-only');
    }
    await e2e.service.projected();
    const events = await call('GET', '/v1/events?limit=100', { key: b.body.apiKey });
    expect(events.status, events.text).toBe(200);
    expect(events.text).not.toContain(victim.id);
    // The organization key still sees it, unchanged.
    const got = await call('GET', `/v1/customers/${victim.id}`, { key: e2e.org.key });
    expect(got.body).toMatchObject({ name: 'Target', defaultPaymentMethodId: method.id });
  });

  it("refuses to remove one customer's method through another customer's path (404 PAYMENT_METHOD_NOT_FOUND)", async () => {
    const owner = await createCustomer(e2e.org.key);
    const stranger = await createCustomer(e2e.org.key);
    const method = await attach(e2e.org.key, owner.id);
    expectError(
      await call('DELETE', `/v1/customers/${stranger.id}/payment-methods/${method.id}`, { key: e2e.org.key }),
      404,
      'PAYMENT_METHOD_NOT_FOUND',
    );
    const methods = await call('GET', `/v1/customers/${owner.id}/payment-methods`, { key: e2e.org.key });
    expect(methods.body.data.map((m: { id: string }) => m.id)).toEqual([method.id]);
  });

  it('MCP: agent scoping holds, tool results and errors never carry the number', async () => {
    const perms = ['wallets:read', 'invoices:read', 'invoices:write'];
    const a = await call('POST', '/v1/agents', { key: e2e.org.key, body: { name: 'MCP A', permissions: perms } });
    const b = await call('POST', '/v1/agents', { key: e2e.org.key, body: { name: 'MCP B', permissions: perms } });
    const victim = await createCustomer(a.body.apiKey);
    const clientA = await connectMcp(e2e.service.baseUrl, a.body.apiKey);
    const clientB = await connectMcp(e2e.service.baseUrl, b.body.apiKey);
    try {
      expectToolError(await callTool(clientB, 'get_customer', { id: victim.id }), 'CUSTOMER_NOT_FOUND');
      expectToolError(
        await callTool(clientB, 'attach_test_payment_method', { id: victim.id, number: '5555555555554444' }),
        'CUSTOMER_NOT_FOUND',
      );
      const saved = await callTool(clientA, 'attach_test_payment_method', {
        id: victim.id,
        number: '5555555555554444',
      });
      expect(saved.isError ?? false, JSON.stringify(saved.content)).toBe(false);
      expect(JSON.stringify(saved)).not.toContain('5555555555554444');
      const bad = await callTool(clientA, 'attach_test_payment_method', { id: victim.id, number: '5555555555554445' });
      expectToolError(bad, 'VALIDATION_ERROR');
      expect(JSON.stringify(bad)).not.toContain('5555555555554445');
    } finally {
      await clientA.close();
      await clientB.close();
    }
  });

  it('refuses keys without the invoices permissions (403 PERMISSION_DENIED), reads with invoices:read only', async () => {
    const customer = await createCustomer(e2e.org.key);
    const reader = (await createApiKey(e2e.service, e2e.org, { permissions: ['invoices:read'] })).key;
    const none = (await createApiKey(e2e.service, e2e.org, { permissions: ['wallets:read'] })).key;
    expect((await call('GET', `/v1/customers/${customer.id}`, { key: reader })).status).toBe(200);
    for (const [verb, path, body] of [
      ['POST', '/v1/customers', { email: email(), name: 'x' }],
      ['PATCH', `/v1/customers/${customer.id}`, { name: 'x' }],
      ['POST', `/v1/customers/${customer.id}/payment-methods/setup`, undefined],
      ['POST', `/v1/test-helpers/customers/${customer.id}/payment-methods`, {}],
    ] as const)
      expectError(await call(verb, path, { key: reader, ...(body ? { body } : {}) }), 403, 'PERMISSION_DENIED');
    expectError(await call('GET', `/v1/customers/${customer.id}`, { key: none }), 403, 'PERMISSION_DENIED');
    expectError(await call('GET', '/v1/customers', { key: none }), 403, 'PERMISSION_DENIED');
  });

  it('rejects PATCH mass assignment (email, id, walletId, defaultPaymentMethodId, environment, unknown)', async () => {
    const customer = await createCustomer(e2e.org.key);
    for (const field of ['email', 'id', 'walletId', 'defaultPaymentMethodId', 'environment', 'organizationId'])
      expectValidationError(
        await call('PATCH', `/v1/customers/${customer.id}`, { key: e2e.org.key, body: { [field]: 'x' } }),
        field,
      );
    expectValidationError(
      await call('POST', '/v1/customers', {
        key: e2e.org.key,
        body: { email: email(), name: 'x', walletId: 'wal_x' },
      }),
      'walletId',
    );
  });

  // ---- Races ---------------------------------------------------------------------------------

  it('lets exactly one of many concurrent creates with one email in different cases win (others 409)', async () => {
    const base = `race-${randomBytes(3).toString('hex')}@example.com`;
    const variants = [base, base.toUpperCase(), `Race${base.slice(4)}`, base.replace('@', '@').toUpperCase(), base];
    const answers = await Promise.all(
      variants.map((address) =>
        call('POST', '/v1/customers', { key: e2e.org.key, body: { email: address, name: 'R' } }),
      ),
    );
    expect(answers.filter((r) => r.status === 201)).toHaveLength(1);
    for (const answer of answers.filter((r) => r.status !== 201)) expectError(answer, 409, 'CUSTOMER_EMAIL_TAKEN');
  });

  it('saves exactly one method when one setup link is completed concurrently', async () => {
    const customer = await createCustomer(e2e.org.key);
    const token = await setupToken(e2e.org.key, customer.id);
    const answers = await Promise.all(
      [0, 1, 2, 3].map(() => call('POST', `/v1/payment-method-sessions/${token}`, { body: card() })),
    );
    expect(
      answers.filter((r) => r.status === 201),
      answers.map((r) => r.text).join('\n'),
    ).toHaveLength(1);
    for (const answer of answers.filter((r) => r.status !== 201)) expectError(answer, 409, 'INVALID_STATE');
    const methods = await call('GET', `/v1/customers/${customer.id}/payment-methods`, { key: e2e.org.key });
    expect(methods.body.data).toHaveLength(1);
  });

  // ---- Sessions ------------------------------------------------------------------------------

  it('an update link whose method was deleted still completes (as a setup), never a 500', async () => {
    const customer = await createCustomer(e2e.org.key);
    const method = await attach(e2e.org.key, customer.id);
    const link = await call('POST', `/v1/customers/${customer.id}/payment-update-url`, { key: e2e.org.key });
    expect(link.status, link.text).toBe(201);
    const token = tokenOf(link.body.url);
    await call('DELETE', `/v1/customers/${customer.id}/payment-methods/${method.id}`, { key: e2e.org.key });
    const session = await call('GET', `/v1/payment-method-sessions/${token}`);
    expect(session.body).toMatchObject({ kind: 'update', status: 'OPEN' });
    expect(session.body.currentMethod).toBeUndefined();
    const saved = await call('POST', `/v1/payment-method-sessions/${token}`, { body: card() });
    expect(saved.status, saved.text).toBe(201);
    expect(saved.body.isDefault).toBe(true);
  });

  it('the public session read reveals no id, email, wallet or metadata; malformed tokens are 404', async () => {
    const customer = await createCustomer(e2e.org.key, { metadata: { internal: 'do-not-show' }, phone: '+1 555' });
    const token = await setupToken(e2e.org.key, customer.id);
    const session = await call('GET', `/v1/payment-method-sessions/${token}`);
    expect(Object.keys(session.body).sort()).toEqual([
      'customerName',
      'environment',
      'expiresAt',
      'kind',
      'merchantName',
      'status',
    ]);
    expect(session.text).not.toContain(customer.id);
    expect(session.text).not.toContain('do-not-show');
    expect(session.text).not.toContain('@example.com');
    for (const bad of [
      token.slice(0, 31),
      `${token}A`,
      token.toLowerCase() === token ? token.toUpperCase() : token.toLowerCase(),
    ])
      expectError(await call('GET', `/v1/payment-method-sessions/${bad}`), 404, 'PAYMENT_METHOD_SESSION_NOT_FOUND');
  });

  // ---- Inputs --------------------------------------------------------------------------------

  it('metadata refuses control characters (decisions section 9) and lone surrogates, never a 500', async () => {
    const cases = [{ note: 'a\u0000b' }, { note: 'bell\u0007' }, { 'k\u001b': 'v' }, { note: '\ud800' }];
    const statuses: string[] = [];
    for (const metadata of cases) {
      const response = await call('POST', '/v1/customers', {
        key: e2e.org.key,
        body: { email: email(), name: 'M', metadata },
      });
      statuses.push(`${JSON.stringify(metadata)} -> ${response.status} ${response.body?.error?.code ?? ''}`);
    }
    expect(statuses).toEqual(cases.map((metadata) => `${JSON.stringify(metadata)} -> 400 VALIDATION_ERROR`));
  });

  it('refuses a metadata key "__proto__" (never silently dropped)', async () => {
    const response = await call('POST', '/v1/customers', {
      key: e2e.org.key,
      body: JSON.parse(`{"email":"${email()}","name":"P","metadata":{"__proto__":"x","ok":"y"}}`),
    });
    noServerError(response);
    if (response.status === 201) expect(Object.keys(response.body.metadata).sort()).toEqual(['__proto__', 'ok']);
    else expectValidationError(response, 'metadata');
  });

  it('refuses bad card and bank inputs with VALIDATION_ERROR naming the field, never echoing the number', async () => {
    const customer = await createCustomer(e2e.org.key);
    const token = await setupToken(e2e.org.key, customer.id);
    const post = (body: unknown) => call('POST', `/v1/payment-method-sessions/${token}`, { body });
    const cases: [unknown, string][] = [
      [{ ...card(), expMonth: 13 }, 'expMonth'],
      [{ ...card(), expMonth: 0 }, 'expMonth'],
      [{ ...card(), expMonth: 1.5 }, 'expMonth'],
      [{ ...card(), expYear: 2001 }, 'expYear'],
      [{ ...card(), expYear: 1e308 }, 'expYear'],
      [{ ...card(), number: 4242424242424242 }, 'number'],
      [{ ...card(), number: '4242-4242-4242-4242' }, 'number'],
      [{ ...card(), number: '4242424242424242\u0000' }, 'number'],
      [{ ...card(), number: '9'.repeat(33) }, 'number'],
      [{ ...card(), cvc: '12' }, 'cvc'],
      [{ ...card(), cvc: 123 }, 'cvc'],
      [{ ...card(), extra: true }, 'extra'],
      [
        {
          type: 'us_bank_account',
          routingNumber: '110000001',
          accountNumber: '000123456789',
          accountHolderName: 'A',
          accountType: 'checking',
        },
        'routingNumber',
      ],
      [
        {
          type: 'us_bank_account',
          routingNumber: '110000000',
          accountNumber: '12a4567',
          accountHolderName: 'A',
          accountType: 'checking',
        },
        'accountNumber',
      ],
      [
        {
          type: 'us_bank_account',
          routingNumber: '110000000',
          accountNumber: '000123456789',
          accountHolderName: 'A\u0007',
          accountType: 'checking',
        },
        'accountHolderName',
      ],
    ];
    for (const [body, field] of cases) {
      const response = await post(body);
      expectValidationError(response, field);
      expect(response.text).not.toContain('4242424242424242');
      expect(response.text).not.toContain('000123456789');
    }
    // Nothing used the link up.
    expect((await call('GET', `/v1/payment-method-sessions/${token}`)).body.status).toBe('OPEN');
    expect((await post(card())).status).toBe(201);
  });

  it('refuses a body that is not an object, and a type outside the union, on the public route', async () => {
    const customer = await createCustomer(e2e.org.key);
    const token = await setupToken(e2e.org.key, customer.id);
    for (const body of [null, [], 'x', 1, { type: 'paypal' }, {}]) {
      const response = await call('POST', `/v1/payment-method-sessions/${token}`, { body });
      expect(response.status, response.text).toBe(400);
    }
  });
});
