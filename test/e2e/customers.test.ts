import { randomBytes } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLogs, type LogCapture } from '../fixtures/log-capture.js';
import { ENV } from '../../shared/config/env-names.js';
import { startTestService, type ApiResponse, type TestService } from '../fixtures/local-service.js';
import {
  activateProduction,
  createApiKey,
  expectError,
  expectValidationError,
  type Organization,
} from '../fixtures/organizations.js';

const CARD = '4242424242424242';
const OTHER_CARD = '5555555555554444';
const ACCOUNT = '000987654321';
const AGENT_PERMISSIONS = ['wallets:read', 'invoices:read', 'invoices:write'];

/** Customers and payment methods over HTTP (docs/api.md "Customers and payment methods"). */
describe('customers and payment methods', () => {
  let service: TestService;
  let org: Organization;
  let other: Organization;
  /** Every response body and console line of the file: none may hold a full number. */
  const seen: string[] = [];
  let logs: LogCapture | undefined;

  const call = async (method: string, path: string, options: { key?: string; body?: unknown } = {}) => {
    const response: ApiResponse = await service.call(method, path, options);
    seen.push(response.text);
    return response;
  };
  const created = async (key: string, body: Record<string, unknown>) => {
    const response = await call('POST', '/v1/customers', { key, body });
    expect(response.status, response.text).toBe(201);
    return response.body as { id: string; email: string; walletId: string | null };
  };
  /** The token of a link: the last segment of its URL. */
  const tokenOf = (url: string) => new URL(url).pathname.split('/').pop()!;
  const setupLink = async (customerId: string, key = org.key) => {
    const response = await call('POST', `/v1/customers/${customerId}/payment-methods/setup`, { key });
    expect(response.status, response.text).toBe(201);
    return response.body as { url: string; expiresAt: string };
  };
  const card = (number = CARD) => ({ type: 'card', number, expMonth: 12, expYear: 2030, cvc: '123' });

  beforeAll(async () => {
    service = await startTestService({ [ENV.dataEncryptionKey]: randomBytes(32).toString('hex') });
    org = await service.createOrganization('Acme Billing');
    other = await service.createOrganization('Other Org');
    logs = captureLogs(seen);
  });
  afterAll(async () => {
    logs?.restore();
    await service.close();
  });

  it('creates a customer; the same email in another case is CUSTOMER_EMAIL_TAKEN', async () => {
    const response = await call('POST', '/v1/customers', {
      key: org.key,
      body: { email: 'Ada@Example.com', name: 'Ada Lovelace', phone: '+1 415 555 0100', metadata: { crm: '7' } },
    });
    expect(response.status, response.text).toBe(201);
    expect(response.body).toMatchObject({
      object: 'customer',
      email: 'Ada@Example.com',
      name: 'Ada Lovelace',
      phone: '+1 415 555 0100',
      metadata: { crm: '7' },
      walletId: null,
      defaultPaymentMethodId: null,
      environment: 'SANDBOX',
    });
    expect(response.body.id).toMatch(/^cus_/);
    const again = await call('POST', '/v1/customers', {
      key: org.key,
      body: { email: 'ada@EXAMPLE.com', name: 'Ada' },
    });
    expectError(again, 409, 'CUSTOMER_EMAIL_TAKEN');
    // Another organization may hold the same email.
    await created(other.key, { email: 'ada@example.com', name: 'Ada elsewhere' });
    expectValidationError(
      await call('POST', '/v1/customers', { key: org.key, body: { email: 'nope', name: 'X' } }),
      'email',
    );
    expectValidationError(
      await call('POST', '/v1/customers', { key: org.key, body: { email: 'x@example.com', name: 'X', extra: 1 } }),
      'extra',
    );
  });

  it('lists customers newest first with cursor pages, and finds one by email in any case', async () => {
    const first = await created(org.key, { email: 'list1@example.com', name: 'L1' });
    const second = await created(org.key, { email: 'list2@example.com', name: 'L2' });
    const page = await call('GET', '/v1/customers?limit=1', { key: org.key });
    expect(page.status, page.text).toBe(200);
    expect(page.body.data.map((c: { id: string }) => c.id)).toEqual([second.id]);
    expect(page.body.hasMore).toBe(true);
    const next = await call('GET', `/v1/customers?limit=1&cursor=${encodeURIComponent(page.body.cursor)}`, {
      key: org.key,
    });
    expect(next.body.data.map((c: { id: string }) => c.id)).toEqual([first.id]);
    const byEmail = await call('GET', '/v1/customers?email=LIST1%40example.COM', { key: org.key });
    expect(byEmail.body.data.map((c: { id: string }) => c.id)).toEqual([first.id]);
    const none = await call('GET', '/v1/customers?email=nobody%40example.com', { key: org.key });
    expect(none.body).toMatchObject({ data: [], hasMore: false });
  });

  it('patches name, phone, companyName and metadata; email is not patchable', async () => {
    const customer = await created(org.key, { email: 'patch@example.com', name: 'P', phone: '1' });
    const patched = await call('PATCH', `/v1/customers/${customer.id}`, {
      key: org.key,
      body: { name: 'Patched', phone: null, companyName: 'Co', metadata: { a: 'b' } },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({ name: 'Patched', companyName: 'Co', metadata: { a: 'b' } });
    expect(patched.body.phone).toBeUndefined();
    const got = await call('GET', `/v1/customers/${customer.id}`, { key: org.key });
    expect(got.body).toEqual(patched.body);
    expectValidationError(
      await call('PATCH', `/v1/customers/${customer.id}`, { key: org.key, body: { email: 'new@example.com' } }),
      'email',
    );
    expectError(
      await call('PATCH', '/v1/customers/cus_nowhere', { key: org.key, body: { name: 'x' } }),
      404,
      'CUSTOMER_NOT_FOUND',
    );
  });

  it("scopes agent keys to their wallet's customers; organization keys see all", async () => {
    const agent = await call('POST', '/v1/agents', {
      key: org.key,
      body: { name: 'Biller', permissions: AGENT_PERMISSIONS },
    });
    expect(agent.status, agent.text).toBe(201);
    const otherAgent = await call('POST', '/v1/agents', {
      key: org.key,
      body: { name: 'Other biller', permissions: AGENT_PERMISSIONS },
    });
    const mine = await created(agent.body.apiKey, { email: 'agent-customer@example.com', name: 'Of the agent' });
    expect(mine.walletId).toBe(agent.body.id);
    const orgs = await created(org.key, { email: 'org-customer@example.com', name: 'Of the org' });

    const listed = await call('GET', '/v1/customers?limit=100', { key: agent.body.apiKey });
    expect(listed.body.data.map((c: { id: string }) => c.id)).toEqual([mine.id]);
    expect((await call('GET', `/v1/customers/${mine.id}`, { key: agent.body.apiKey })).status).toBe(200);
    expectError(await call('GET', `/v1/customers/${orgs.id}`, { key: agent.body.apiKey }), 404, 'CUSTOMER_NOT_FOUND');
    expectError(
      await call('GET', `/v1/customers/${mine.id}`, { key: otherAgent.body.apiKey }),
      404,
      'CUSTOMER_NOT_FOUND',
    );
    const byEmail = await call('GET', '/v1/customers?email=org-customer%40example.com', { key: agent.body.apiKey });
    expect(byEmail.body.data).toEqual([]);
    expect((await call('GET', `/v1/customers/${mine.id}`, { key: org.key })).status).toBe(200);
  });

  it('saves a card through a setup link: default, brand visa, last4 4242; the link works once', async () => {
    const customer = await created(org.key, { email: 'setup@example.com', name: 'Grace Hopper' });
    const link = await setupLink(customer.id);
    expect(link.url.startsWith(`${service.baseUrl}/hosted/payment-methods/`)).toBe(true);
    const token = tokenOf(link.url);
    expect(token.length).toBeGreaterThanOrEqual(22);

    const session = await call('GET', `/v1/payment-method-sessions/${token}`);
    expect(session.status, session.text).toBe(200);
    expect(session.body).toEqual({
      kind: 'setup',
      status: 'OPEN',
      merchantName: 'Acme Billing',
      customerName: 'Grace Hopper',
      expiresAt: link.expiresAt,
      environment: 'SANDBOX',
    });
    expect(Date.parse(link.expiresAt) - Date.now()).toBeGreaterThan(23 * 3600 * 1000);

    expectValidationError(
      await call('POST', `/v1/payment-method-sessions/${token}`, { body: card('4242424242424241') }),
      'number',
    );
    const saved = await call('POST', `/v1/payment-method-sessions/${token}`, { body: card() });
    expect(saved.status, saved.text).toBe(201);
    expect(saved.body).toMatchObject({
      object: 'payment_method',
      customerId: customer.id,
      type: 'card',
      brand: 'visa',
      last4: '4242',
      expMonth: 12,
      expYear: 2030,
      isDefault: true,
    });
    const listed = await call('GET', `/v1/customers/${customer.id}/payment-methods`, { key: org.key });
    expect(listed.body.data).toEqual([saved.body]);
    expect((await call('GET', `/v1/customers/${customer.id}`, { key: org.key })).body.defaultPaymentMethodId).toBe(
      saved.body.id,
    );

    expectError(await call('POST', `/v1/payment-method-sessions/${token}`, { body: card() }), 409, 'INVALID_STATE');
    expect((await call('GET', `/v1/payment-method-sessions/${token}`)).body.status).toBe('COMPLETED');
    expectError(
      await call('GET', `/v1/payment-method-sessions/${'x'.repeat(32)}`),
      404,
      'PAYMENT_METHOD_SESSION_NOT_FOUND',
    );
  });

  it('replaces the default through an update link, then removes methods (the newest remaining becomes default)', async () => {
    const customer = await created(org.key, { email: 'update@example.com', name: 'Update Me' });
    expectError(
      await call('POST', `/v1/customers/${customer.id}/payment-update-url`, { key: org.key }),
      409,
      'INVALID_STATE',
    );
    const first = await call('POST', `/v1/test-helpers/customers/${customer.id}/payment-methods`, {
      key: org.key,
      body: {},
    });
    expect(first.status, first.text).toBe(201);
    expect(first.body).toMatchObject({ brand: 'visa', last4: '4242', isDefault: true });
    const bank = await call('POST', `/v1/test-helpers/customers/${customer.id}/payment-methods`, {
      key: org.key,
      body: { type: 'us_bank_account', accountNumber: ACCOUNT },
    });
    expect(bank.body).toMatchObject({ type: 'us_bank_account', last4: '4321', isDefault: false });

    const update = await call('POST', `/v1/customers/${customer.id}/payment-update-url`, { key: org.key });
    expect(update.status, update.text).toBe(201);
    const token = tokenOf(update.body.url);
    const session = await call('GET', `/v1/payment-method-sessions/${token}`);
    expect(session.body).toMatchObject({
      kind: 'update',
      status: 'OPEN',
      currentMethod: { type: 'card', brand: 'visa', last4: '4242' },
    });
    const replaced = await call('POST', `/v1/payment-method-sessions/${token}`, { body: card(OTHER_CARD) });
    expect(replaced.status, replaced.text).toBe(201);
    expect(replaced.body).toMatchObject({ brand: 'mastercard', last4: '4444', isDefault: true });
    const methods = await call('GET', `/v1/customers/${customer.id}/payment-methods`, { key: org.key });
    expect(methods.body.data.map((m: { id: string }) => m.id).sort()).toEqual([replaced.body.id, bank.body.id].sort());

    const removed = await call('DELETE', `/v1/customers/${customer.id}/payment-methods/${replaced.body.id}`, {
      key: org.key,
    });
    expect(removed.status, removed.text).toBe(200);
    const after = await call('GET', `/v1/customers/${customer.id}`, { key: org.key });
    expect(after.body.defaultPaymentMethodId).toBe(bank.body.id);
    expectError(
      await call('DELETE', `/v1/customers/${customer.id}/payment-methods/${replaced.body.id}`, { key: org.key }),
      404,
      'PAYMENT_METHOD_NOT_FOUND',
    );
    await call('DELETE', `/v1/customers/${customer.id}/payment-methods/${bank.body.id}`, { key: org.key });
    expect(
      (await call('GET', `/v1/customers/${customer.id}`, { key: org.key })).body.defaultPaymentMethodId,
    ).toBeNull();
  });

  it('answers another organization 404 everywhere', async () => {
    const customer = await created(org.key, { email: 'isolated@example.com', name: 'Isolated' });
    const method = await call('POST', `/v1/test-helpers/customers/${customer.id}/payment-methods`, {
      key: org.key,
      body: {},
    });
    const calls: [string, string, unknown?][] = [
      ['GET', `/v1/customers/${customer.id}`],
      ['PATCH', `/v1/customers/${customer.id}`, { name: 'Stolen' }],
      ['GET', `/v1/customers/${customer.id}/payment-methods`],
      ['POST', `/v1/customers/${customer.id}/payment-methods/setup`],
      ['POST', `/v1/customers/${customer.id}/payment-update-url`],
      ['DELETE', `/v1/customers/${customer.id}/payment-methods/${method.body.id}`],
      ['POST', `/v1/test-helpers/customers/${customer.id}/payment-methods`, {}],
    ];
    for (const [method_, path, body] of calls) {
      const response = await call(method_, path, { key: other.key, ...(body !== undefined ? { body } : {}) });
      expectError(response, 404, 'CUSTOMER_NOT_FOUND');
    }
    const listed = await call('GET', '/v1/customers?email=isolated%40example.com', { key: other.key });
    expect(listed.body.data).toEqual([]);
  });

  it('refuses the test helper to live keys and a production key the sandbox customer (ENVIRONMENT_MISMATCH)', async () => {
    const customer = await created(org.key, { email: 'env@example.com', name: 'Env' });
    await activateProduction(service, org);
    const live = (
      await createApiKey(service, org, { permissions: ['invoices:read', 'invoices:write'], environment: 'PRODUCTION' })
    ).key;
    expectError(
      await call('POST', `/v1/test-helpers/customers/${customer.id}/payment-methods`, { key: live, body: {} }),
      403,
      'SANDBOX_ONLY',
    );
    expectError(await call('GET', `/v1/customers/${customer.id}`, { key: live }), 403, 'ENVIRONMENT_MISMATCH');
  });

  it('never stores, answers, logs or emits a full number', async () => {
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
    expect(stored).toContain('4242');
    for (const number of [CARD, OTHER_CARD, ACCOUNT, '000123456789']) {
      expect(stored).not.toContain(number);
      expect(seen.filter((text) => text.includes(number))).toEqual([]);
    }
    // Events of payment methods were written (and hold brand and last4 only).
    expect(stored).toContain('customer.payment_method.saved');
    expect(stored).toContain('customer.payment_method.updated');
    expect(stored).toContain('customer.payment_method.removed');
  });
});
