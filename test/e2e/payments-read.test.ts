import { beforeAll, describe, expect, it } from 'vitest';
import { setupE2e } from '../fixtures/e2e-setup.js';
import { expectApiError, expectStatus } from '../fixtures/payments-client.js';

describe('payments: GET /v1/payments and GET /v1/payments/:id', () => {
  const { service, ledger, org, otherOrg, wallets } = setupE2e({
    organizations: { org: 'Reader Org', otherOrg: 'Other Org' },
    wallets: {
      payer: { organization: 'org', balance: '100.00' },
      payee: { organization: 'org', name: 'Payee' },
      secondPayer: { organization: 'org', balance: '100.00', name: 'Second payer' },
    },
  });
  const posted: string[] = [];
  let queuedId: string;
  beforeAll(async () => {
    const { payer, payee, secondPayer } = wallets;
    for (const amount of ['1.00', '2.00', '3.00', '4.00', '5.00'])
      posted.push((await ledger.paid(org.key, { from: payer, to: payee, amount })).id);
    await ledger.paid(org.key, { from: secondPayer, to: payee, amount: '9.00' });
    await ledger.createPolicy(org.key, { walletId: secondPayer, requireHumanApproval: true });
    queuedId = (await ledger.queuedPayment(org.key, { from: secondPayer, to: payee, amount: '7.00' })).transactionId;
    // The organization-wide list is projected from the journal (visible within 2 s); a wallet's is not.
    await service.projected();
  });

  const list = (query: string, key = org.key) => service.call('GET', `/v1/payments${query}`, { key });

  describe('list', () => {
    it("lists the organization's payments newest first in the page shape", async () => {
      // Act
      const response = await list('');

      // Assess
      expectStatus(response, 200);
      expect(response.body).toMatchObject({ cursor: null, hasMore: false });
      const payments = response.body.data.filter((p: { type: string }) => p.type === 'PAYMENT');
      expect(payments).toHaveLength(7);
      expect(payments[0]).toMatchObject({ id: queuedId, status: 'QUEUED', amount: '7.00', fee: '0.00' });
      const times = response.body.data.map((p: { createdAt: string }) => p.createdAt);
      expect([...times].sort().reverse()).toEqual(times);
    });

    it('lists only payments: sandbox fundings, whose source is a system account, are not payments', async () => {
      // Act
      const response = await list('');

      // Assess
      expectStatus(response, 200);
      const sources = response.body.data.map((p: { from: string }) => p.from);
      expect(sources.filter((from: string) => !from.startsWith('wal_'))).toEqual([]);
      expect(response.body.data.map((p: { type: string }) => p.type)).not.toContain('FUNDING');
    });

    it('filters by paying wallet', async () => {
      const response = await list(`?walletId=${wallets.payer}`);
      expectStatus(response, 200);
      expect(response.body.data.map((p: { id: string }) => p.id)).toEqual([...posted].reverse());
    });

    it('filters by status', async () => {
      // Act
      const queued = await list('?status=QUEUED');
      const postedOnly = await list('?status=POSTED');
      const both = await list(`?status=QUEUED&walletId=${wallets.secondPayer}`);

      // Assess
      expect(queued.body.data.map((p: { id: string }) => p.id)).toEqual([queuedId]);
      const postedPayments = postedOnly.body.data.filter((p: { type: string }) => p.type === 'PAYMENT');
      expect(postedPayments).toHaveLength(6);
      expect(postedOnly.body.data.every((p: { status: string }) => p.status === 'POSTED')).toBe(true);
      expect(both.body.data.map((p: { id: string }) => p.id)).toEqual([queuedId]);
    });

    it('pages with limit and cursor without gaps or repeats', async () => {
      // Act
      const pages = await ledger.allPages(org.key, `/v1/payments?walletId=${wallets.payer}`, 2);

      // Assess
      expect(pages.map((p) => p.body.data.length)).toEqual([2, 2, 1]);
      expect(pages.slice(0, -1).every((p) => p.body.hasMore === true && typeof p.body.cursor === 'string')).toBe(true);
      expect(pages.at(-1)!.body).toMatchObject({ cursor: null, hasMore: false });
      const ids = pages.flatMap((p) => p.body.data.map((d: { id: string }) => d.id));
      expect(ids).toEqual([...posted].reverse());
    });

    it('answers hasMore false and a null cursor when the last page is exactly full', async () => {
      // Act
      const response = await list(`?walletId=${wallets.payer}&limit=${posted.length}`);

      // Assess
      expectStatus(response, 200);
      expect(response.body.data).toHaveLength(posted.length);
      expect(response.body).toMatchObject({ cursor: null, hasMore: false });
    });

    it('lists a payment under its payee wallet too', async () => {
      // Act
      const response = await list(`?walletId=${wallets.payee}`);

      // Assess
      expectStatus(response, 200);
      expect(response.body.data.map((p: { id: string }) => p.id)).toEqual(expect.arrayContaining(posted));
    });

    it('answers 400 VALIDATION_ERROR for an unknown status, a limit out of range, a foreign cursor or an unknown parameter', async () => {
      expectApiError(await list('?status=DONE'), 400, 'VALIDATION_ERROR');
      expectApiError(await list('?limit=0'), 400, 'VALIDATION_ERROR');
      expectApiError(await list('?limit=101'), 400, 'VALIDATION_ERROR');
      expectApiError(await list('?color=blue'), 400, 'VALIDATION_ERROR');
      const page = await list(`?walletId=${wallets.payer}&limit=2`);
      const cursor = encodeURIComponent(page.body.cursor as string);
      expectApiError(await list(`?limit=2&cursor=${cursor}`), 400, 'VALIDATION_ERROR');
      expectApiError(await list(`?walletId=${wallets.payer}&limit=2&cursor=${cursor}x`), 400, 'VALIDATION_ERROR');
    });

    it("does not show another organization's payments", async () => {
      const response = await list('', otherOrg.key);
      expectStatus(response, 200);
      expect(response.body.data).toEqual([]);
    });

    it('answers 403 PERMISSION_DENIED for a key without payments:read and 401 without a key', async () => {
      const writer = await ledger.createKey(org, ['payments:write']);
      expectApiError(await list('', writer.key), 403, 'PERMISSION_DENIED');
      expectApiError(await service.call('GET', '/v1/payments'), 401, 'UNAUTHORIZED');
    });
  });

  describe('get', () => {
    it('returns a payment by id', async () => {
      // Act
      const response = await ledger.getPayment(org.key, posted[0]!);

      // Assess
      expectStatus(response, 200);
      expect(response.body).toMatchObject({
        id: posted[0],
        from: wallets.payer,
        to: wallets.payee,
        amount: '1.00',
        fee: '0.00',
        status: 'POSTED',
      });
    });

    it('answers 404 TRANSACTION_NOT_FOUND for an unknown id', async () => {
      expectApiError(await ledger.getPayment(org.key, 'txn_doesnotexist0000000000000'), 404, 'TRANSACTION_NOT_FOUND');
    });

    it("answers 404 TRANSACTION_NOT_FOUND for another organization's payment", async () => {
      expectApiError(await ledger.getPayment(otherOrg.key, posted[0]!), 404, 'TRANSACTION_NOT_FOUND');
    });

    it('lets the receiving organization read a payment made to its wallet', async () => {
      // Prepare
      const receiving = await ledger.fundedWallet(otherOrg, undefined, 'Receiving');
      const payment = await ledger.paid(org.key, { from: wallets.payer, to: receiving, amount: '2.50' });

      // Act
      const response = await ledger.getPayment(otherOrg.key, payment.id);

      // Assess
      expectStatus(response, 200);
      expect(response.body).toMatchObject({
        id: payment.id,
        from: wallets.payer,
        to: receiving,
        amount: '2.50',
        status: 'POSTED',
      });
    });

    it('answers 404 to an agent key for a payment of neither side of its wallet', async () => {
      const agent = await ledger.createAgent(org, 'Bystander');
      expectApiError(await ledger.getPayment(agent.key, posted[0]!), 404, 'TRANSACTION_NOT_FOUND');
    });

    it('answers 403 PERMISSION_DENIED for a key without payments:read', async () => {
      const writer = await ledger.createKey(org, ['wallets:read']);
      expectApiError(await ledger.getPayment(writer.key, posted[0]!), 403, 'PERMISSION_DENIED');
    });
  });
});
