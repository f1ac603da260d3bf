import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../shared/config/config.js';
import { ENV } from '../../shared/config/env-names.js';
import { createCore } from '../../shared/runtime/core.js';
import { invoiceCollectionService } from '../../shared/runtime/services/invoice-collection.js';
import { startTestService, type TestService } from '../fixtures/local-service.js';
import type { Organization } from '../fixtures/organizations.js';
import { expectOk, ledgerClient, type LedgerClient } from '../fixtures/payments-client.js';

/** One week per second (as test/e2e/invoice-collection.test.ts). */
const TIME_SCALE = 604_800;

/** Invoice collection under attack: tenancy of USDC deposits, recurring charges. */
describe('invoice collection: attacks', () => {
  let service: TestService;
  let api: LedgerClient;
  let org: Organization;
  let other: Organization;

  const call = (method: string, path: string, options: { key?: string; body?: unknown } = {}) =>
    service.call(method, path, options);
  const ok = expectOk;
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
  async function finalized(walletId: string, customerId: string, unitPrice = '75.50') {
    const draft = ok(
      await call('POST', '/v1/invoices', {
        key: org.key,
        body: { walletId, customerId, lineItems: [{ description: 'Widgets', unitPrice }] },
      }),
      201,
    );
    return ok(await call('POST', `/v1/invoices/${draft.id}/finalize`, { key: org.key }));
  }
  async function depositOf(invoice: { hostedUrl: string }) {
    return ok(await call('POST', `/v1/invoices/pay/${slugOf(invoice.hostedUrl)}/usdc`)) as { address: string };
  }
  async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, what: string, ms = 15_000) {
    const until = Date.now() + ms;
    for (;;) {
      const value = await read();
      if (check(value)) return value;
      if (Date.now() > until) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  beforeAll(async () => {
    service = await startTestService({
      [ENV.dataEncryptionKey]: randomBytes(32).toString('hex'),
      [ENV.timeScale]: String(TIME_SCALE),
    });
    api = ledgerClient(service);
    org = await service.createOrganization('Review Collection');
    other = await service.createOrganization('Review Other');
  });
  afterAll(async () => {
    await service.close();
  });

  it("another organization's transfer to my address: unknown to it, nothing credited, nothing in my events or receipts", async () => {
    const walletId = await newWallet('USDC foreign');
    const invoice = await finalized(walletId, await customer('foreign@example.com'), '12.34');
    const deposit = await depositOf(invoice);

    const foreign = ok(
      await call('POST', '/v1/test-helpers/usdc/incoming', {
        key: other.key,
        body: { address: deposit.address, amount: '12.34' },
      }),
    );

    expect(foreign).toMatchObject({ outcome: 'UNMATCHED', invoiceId: null, reason: 'unknown_address' });
    expect(JSON.stringify(foreign)).not.toContain(invoice.id);
    expect(await getInvoice(invoice.id)).toMatchObject({ status: 'FINALIZED' });
    const mine = ok(await call('GET', '/v1/usdc-receipts', { key: org.key })).data as { id: string }[];
    expect(mine.map((r) => r.id)).not.toContain(foreign.receiptId);
    const events = ok(await call('GET', '/v1/events?type=invoice.usdc_unmatched&limit=100', { key: org.key }));
    expect(JSON.stringify(events)).not.toContain(foreign.receiptId as string);
    const theirEvents = ok(await call('GET', '/v1/events?type=invoice.usdc_unmatched&limit=100', { key: other.key }));
    expect(JSON.stringify(theirEvents)).not.toContain(invoice.id);
    expect(JSON.stringify(theirEvents)).not.toContain(walletId);
  });

  it('the exact amount twice: the second is UNMATCHED, credited once', async () => {
    const walletId = await newWallet('USDC twice');
    const invoice = await finalized(walletId, await customer('twice@example.com'), '10.00');
    const deposit = await depositOf(invoice);
    const send = () =>
      call('POST', '/v1/test-helpers/usdc/incoming', {
        key: org.key,
        body: { address: deposit.address, amount: '10' },
      });

    const [a, b] = await Promise.all([send(), send()]);

    const outcomes = [ok(a).outcome, ok(b).outcome].sort();
    expect(outcomes).toEqual(['PAID', 'UNMATCHED']);
    // USDC: 0.50 + 0.05 = 0.55 of fees.
    expect(ok(await call('GET', `/v1/wallets/${walletId}`, { key: org.key })).balance).toBe('9.45000000');
    await api.expectLedgerBalanced();
  });

  it('refuses a recurring charge whose endAt is in the past (400 VALIDATION_ERROR), charging nothing', async () => {
    const walletId = await newWallet('Past end');
    const customerId = await customer('past@example.com', {});

    const response = await call('POST', '/v1/invoices/charge', {
      key: org.key,
      body: {
        walletId,
        customerId,
        amount: '5.00',
        description: 'Plan',
        recurring: { interval: 'weekly', endAt: '2020-01-01T00:00:00Z' },
      },
    });

    expect(response.status, response.text).toBe(400);
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
    expect(ok(await call('GET', `/v1/wallets/${walletId}`, { key: org.key })).balance).toBe('0.00000000');
  });

  it('an agent key can not cancel the schedule of another wallet (404)', async () => {
    const walletId = await newWallet('Recurring owned');
    const customerId = await customer('owned@example.com', {});
    const first = ok(
      await call('POST', '/v1/invoices/charge', {
        key: org.key,
        body: { walletId, customerId, amount: '5.00', description: 'Plan', recurring: { interval: 'monthly' } },
      }),
      201,
    );
    const agent = await api.createAgent(org, 'Nosy agent');

    const response = await call('DELETE', `/v1/invoices/${first.id}/recurring`, { key: agent.key });

    // An agent key has no invoices:write by default (403); with it, another wallet's invoice is 404.
    expect([403, 404], response.text).toContain(response.status);
    expect((await getInvoice(first.id)).recurring).toMatchObject({ status: 'ACTIVE' });
    ok(await call('DELETE', `/v1/invoices/${first.id}/recurring`, { key: org.key }));
  });

  it('a recurring run whose payment method was deleted fails visibly (payment_failed, retries, then UNCOLLECTIBLE), never silently', async () => {
    const walletId = await newWallet('Recurring deleted method');
    const customerId = await customer('deleted-method@example.com', {});
    const first = ok(
      await call('POST', '/v1/invoices/charge', {
        key: org.key,
        body: { walletId, customerId, amount: '20.00', description: 'Weekly plan', recurring: { interval: 'weekly' } },
      }),
      201,
    );
    const methods = ok(await call('GET', `/v1/customers/${customerId}/payment-methods`, { key: org.key })).data as {
      id: string;
    }[];
    for (const method of methods)
      ok(await call('DELETE', `/v1/customers/${customerId}/payment-methods/${method.id}`, { key: org.key }));

    const invoicesOfWallet = async () =>
      (ok(await call('GET', `/v1/invoices?walletId=${walletId}`, { key: org.key })).data as {
        id: string;
        status: string;
      }[]) ?? [];
    const two = await eventually(invoicesOfWallet, (list) => list.length >= 2, 'the second weekly run');
    const second = two.find((i) => i.id !== first.id)!;
    ok(await call('DELETE', `/v1/invoices/${first.id}/recurring`, { key: org.key }));

    // Not left FINALIZED forever without a word: it fails like a decline and ends UNCOLLECTIBLE.
    const ended = await eventually(
      () => getInvoice(second.id),
      (i) => i.status === 'UNCOLLECTIBLE',
      'the failed run to end UNCOLLECTIBLE',
      6_000,
    ).catch(async () => getInvoice(second.id));
    // The last failure's event reaches the feed shortly after its commit (the events API's settle time).
    const failuresOf = async () =>
      (
        ok(await call('GET', '/v1/events?type=invoice.payment_failed&limit=100', { key: org.key })).data as {
          data: { id?: string };
        }[]
      ).filter((e) => e.data.id === second.id).length;
    const failures = await eventually(failuresOf, (count) => count >= 4, 'four payment_failed events').catch(
      failuresOf,
    );
    expect({ status: ended.status, failures }).toEqual({
      status: 'UNCOLLECTIBLE',
      failures: 4,
    });
    await api.expectLedgerBalanced();
  });

  it('the same recurring run delivered three times at once charges once', async () => {
    const walletId = await newWallet('Recurring duplicates');
    const customerId = await customer('dupes@example.com', {});
    const first = ok(
      await call('POST', '/v1/invoices/charge', {
        key: org.key,
        body: { walletId, customerId, amount: '10.00', description: 'Yearly plan', recurring: { interval: 'yearly' } },
      }),
      201,
    );
    // A worker whose clock is past the second run (a scaled year is ~52 s: the real scheduler has not fired yet).
    const later = { now: () => new Date(Date.now() + 120_000) };
    const worker = invoiceCollectionService(createCore(loadConfig(), { clock: later }));
    const message = { kind: 'invoiceRecurring' as const, id: `${first.id as string}.2` };

    const outcomes = await Promise.allSettled([worker.expire(message), worker.expire(message), worker.expire(message)]);

    const list = ok(await call('GET', `/v1/invoices?walletId=${walletId}`, { key: org.key })).data as {
      id: string;
      status: string;
    }[];
    expect(list, JSON.stringify(outcomes)).toHaveLength(2);
    expect(list.every((invoice) => invoice.status === 'PAID')).toBe(true);
    // Card: 2.9% of 10 = 0.29 + 0.30, 0.5% = 0.05: net 9.36 each.
    expect(ok(await call('GET', `/v1/wallets/${walletId}`, { key: org.key })).balance).toBe('18.72000000');
    ok(await call('DELETE', `/v1/invoices/${first.id as string}/recurring`, { key: org.key }));
    await api.expectLedgerBalanced();
  });

  it('a run delivered after the cancel charges nothing', async () => {
    const walletId = await newWallet('Recurring cancelled');
    const customerId = await customer('cancelled@example.com', {});
    const first = ok(
      await call('POST', '/v1/invoices/charge', {
        key: org.key,
        body: { walletId, customerId, amount: '10.00', description: 'Yearly plan', recurring: { interval: 'yearly' } },
      }),
      201,
    );
    ok(await call('DELETE', `/v1/invoices/${first.id as string}/recurring`, { key: org.key }));
    const later = { now: () => new Date(Date.now() + 120_000) };
    const worker = invoiceCollectionService(createCore(loadConfig(), { clock: later }));

    const outcome = await worker.expire({ kind: 'invoiceRecurring', id: `${first.id as string}.2` });

    expect(outcome).toBe('done');
    const list = ok(await call('GET', `/v1/invoices?walletId=${walletId}`, { key: org.key })).data as unknown[];
    expect(list).toHaveLength(1);
    expect(ok(await call('GET', `/v1/wallets/${walletId}`, { key: org.key })).balance).toBe('9.36000000');
  });
});
