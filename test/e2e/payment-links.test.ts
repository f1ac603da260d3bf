import { beforeAll, describe, expect, it } from 'vitest';
import { setupE2e } from '../fixtures/e2e-setup.js';
import { eventually } from '../fixtures/eventually.js';
import type { ApiResponse } from '../fixtures/local-service.js';
import { expectApiError } from '../fixtures/payments-client.js';

/** The body of a response with this status (its text shown when it has another). */
function expectStatus(response: ApiResponse, status: number): any {
  expect(response.status, response.text).toBe(status);
  return response.body;
}

/**
 * Payment links over HTTP, as a client and a recipient use them (docs/api.md "Payment links"): the
 * hold at creation (amount + fee: 0.5 %, at least 0.25), reads and tenancy, cancel and expiry
 * releasing the hold, the wallet claim (exact balances on both sides), restrictions, the public
 * view, claim idempotency and input validation.
 */
interface Balances {
  balance: string;
  heldBalance: string;
}

describe('payment links', () => {
  const { service, ledger, sender, recipient, wallets } = setupE2e({
    organizations: { sender: 'Link Sender Org', recipient: 'Link Recipient Org' },
    wallets: {
      funding: { organization: 'sender', balance: '1000.00', name: 'Links' },
      payee: { organization: 'recipient', name: 'Claims' },
    },
  });

  const create = (body: Record<string, unknown>, key = sender.key) =>
    service.call('POST', '/v1/payment-links', { key, body: { walletId: wallets.funding, ...body } });
  const created = async (body: Record<string, unknown>, key = sender.key) => {
    const response = await create(body, key);
    return expectStatus(response, 201) as Record<string, any>;
  };
  const get = (id: string, key = sender.key) => service.call('GET', `/v1/payment-links/${id}`, { key });
  const claim = (slug: string, body: Record<string, unknown>, idempotencyKey?: string) =>
    service.call('POST', `/v1/payment-links/claim/${slug}/claim`, {
      body,
      ...(idempotencyKey ? { headers: { 'idempotency-key': idempotencyKey } } : {}),
    });
  const toWallet = (walletId: string, extra: Record<string, unknown> = {}) => ({
    method: 'wallet',
    destination: { type: 'WALLET', walletId },
    ...extra,
  });
  async function balancesOf(key: string, walletId: string): Promise<Balances> {
    const wallet = expectStatus(await service.call('GET', `/v1/wallets/${walletId}`, { key }), 200) as Balances;
    return { balance: wallet.balance, heldBalance: wallet.heldBalance };
  }
  /** A fresh funded wallet of the sender, so each test reads exact balances. */
  const freshWallet = (amount = '100.00') => ledger.fundedWallet(sender, amount, 'Link wallet');

  describe('create', () => {
    it('holds amount + fee on the wallet and answers the link with its fee, slug and url', async () => {
      // Prepare
      const walletId = await freshWallet('100.00');

      // Act
      const link = await created({
        walletId,
        amount: '50.00',
        description: 'Thanks for the labelling',
        metadata: { job: '42' },
      });

      // Assess
      expect(link).toMatchObject({
        object: 'payment_link',
        walletId,
        amount: '50.00',
        currency: 'USD',
        fee: '0.25',
        feeCharged: null,
        description: 'Thanks for the labelling',
        recipientRestrictions: { emails: [], walletIds: [] },
        metadata: { job: '42' },
        status: 'ACTIVE',
        approvalId: null,
        claim: null,
        transactionId: null,
        environment: 'SANDBOX',
      });
      expect(link.id).toMatch(/^lnk_/);
      expect(link.slug).toMatch(/^[A-Za-z0-9]{22}$/);
      expect(link.url).toMatch(new RegExp(`/hosted/payment-links/${link.slug}$`));
      const lifetime = Date.parse(link.expiresAt) - Date.parse(link.createdAt);
      expect(lifetime).toBe(30 * 24 * 3600_000);
      expect(await balancesOf(sender.key, walletId)).toEqual({ balance: '49.75000000', heldBalance: '50.25000000' });
    });

    it('charges 0.5 % above 50.00 (1,000.00 holds 1,005.00) and refuses what the wallet can not hold', async () => {
      // Prepare
      const walletId = await freshWallet('1005.00');

      // Act
      const link = await created({ walletId, amount: '1000.00' });
      const refused = await create({ walletId, amount: '0.01' });

      // Assess
      expect(link.fee).toBe('5.00');
      expect(await balancesOf(sender.key, walletId)).toEqual({ balance: '0.00000000', heldBalance: '1005.00000000' });
      expectApiError(refused, 402, 'INSUFFICIENT_FUNDS');
    });

    it('makes a USDC link held 1:1 on the wallet, shown as USDC, and claimed 1:1 to a wallet', async () => {
      // Prepare
      const walletId = await freshWallet('30.00');
      const target = await ledger.fundedWallet(recipient, undefined, 'USDC claims');

      // Act
      const link = await created({ walletId, amount: '20.00', currency: 'USDC' });
      const publicView = expectStatus(await service.call('GET', `/v1/payment-links/claim/${link.slug}`), 200);
      const answer = expectStatus(await claim(link.slug, toWallet(target)), 200);

      // Assess
      expect([link.currency, publicView.currency, answer.currency]).toEqual(['USDC', 'USDC', 'USDC']);
      expect(answer.status).toBe('SETTLED');
      expect((await balancesOf(recipient.key, target)).balance).toBe('20.00000000');
      expect(await balancesOf(sender.key, walletId)).toEqual({ balance: '10.00000000', heldBalance: '0.00000000' });
      expectApiError(await create({ walletId, amount: '1.00', currency: 'EUR' }), 400, 'VALIDATION_ERROR');
    });

    it('answers VALIDATION_ERROR naming the field for bad input', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ amount: '5.00', expiresAt: new Date(Date.now() - 60_000).toISOString() }, 'expiresAt'],
        [{ amount: '5.00', expiresAt: new Date(Date.now() + 91 * 24 * 3600_000).toISOString() }, 'expiresAt'],
        [{ amount: '5.00', description: 'x'.repeat(1025) }, 'description'],
        [{ amount: '5.00', recipientRestrictions: { emails: ['not-an-email'] } }, 'recipientRestrictions.emails.0'],
        [{ amount: '5.00', recipientRestrictions: { walletIds: ['acc_1'] } }, 'recipientRestrictions.walletIds.0'],
        [{ amount: '5.00', color: 'blue' }, 'color'],
      ];
      for (const [body, field] of cases) {
        const error = expectApiError(await create(body), 400, 'VALIDATION_ERROR');
        expect(error.details?.field, JSON.stringify(body)).toBe(field);
      }
      expectApiError(await create({ amount: '-1.00' }), 400, 'INVALID_AMOUNT');
    });
  });

  describe('reads and tenancy', () => {
    let walletId: string;
    let first: Record<string, any>;
    let second: Record<string, any>;
    let agent: { walletId: string; key: string };
    let agentLink: Record<string, any>;

    beforeAll(async () => {
      walletId = await freshWallet('100.00');
      first = await created({ walletId, amount: '10.00' });
      second = await created({ walletId, amount: '20.00' });
      agent = await ledger.createAgent(sender, 'Link agent');
      await ledger.fund(sender.key, agent.walletId, '100.00');
      agentLink = await created({ walletId: agent.walletId, amount: '5.00' }, agent.key);
    });

    it("gets a link and lists a wallet's links newest first, filtered by status", async () => {
      expect(expectStatus(await get(first.id), 200)).toEqual(first);
      const listed = expectStatus(
        await service.call('GET', `/v1/payment-links?walletId=${walletId}`, { key: sender.key }),
        200,
      );
      expect(listed.data.map((link: { id: string }) => link.id)).toEqual([second.id, first.id]);
      const organization = expectStatus(
        await service.call('GET', '/v1/payment-links?limit=100', { key: sender.key }),
        200,
      );
      expect(organization.data.map((link: { id: string }) => link.id)).toEqual(
        expect.arrayContaining([agentLink.id, second.id, first.id]),
      );
      const cancelled = expectStatus(
        await service.call('GET', `/v1/payment-links?walletId=${walletId}&status=CANCELLED`, { key: sender.key }),
        200,
      );
      expect(cancelled.data).toEqual([]);
    });

    it("answers another organization's link and wallet as unknown (404)", async () => {
      expectApiError(await get(first.id, recipient.key), 404, 'PAYMENT_LINK_NOT_FOUND');
      expectApiError(
        await service.call('PATCH', `/v1/payment-links/${first.id}`, {
          key: recipient.key,
          body: { status: 'CANCELLED' },
        }),
        404,
        'PAYMENT_LINK_NOT_FOUND',
      );
      expectApiError(
        await service.call('GET', `/v1/payment-links?walletId=${walletId}`, { key: recipient.key }),
        404,
        'WALLET_NOT_FOUND',
      );
      const theirs = expectStatus(await service.call('GET', '/v1/payment-links', { key: recipient.key }), 200);
      expect(theirs.data).toEqual([]);
      expectApiError(await create({ walletId, amount: '1.00' }, recipient.key), 404, 'WALLET_NOT_FOUND');
    });

    it("lets an agent key see and create only its own wallet's links", async () => {
      expect(expectStatus(await get(agentLink.id, agent.key), 200).id).toBe(agentLink.id);
      expectApiError(await get(first.id, agent.key), 404, 'PAYMENT_LINK_NOT_FOUND');
      const own = expectStatus(await service.call('GET', '/v1/payment-links', { key: agent.key }), 200);
      expect(own.data.map((link: { id: string }) => link.id)).toEqual([agentLink.id]);
      expectApiError(
        await service.call('GET', `/v1/payment-links?walletId=${walletId}`, { key: agent.key }),
        404,
        'WALLET_NOT_FOUND',
      );
      expectApiError(await create({ walletId, amount: '1.00' }, agent.key), 404, 'WALLET_NOT_FOUND');
    });
  });

  describe('cancel and expiry', () => {
    it('cancel releases the whole hold once; a second cancel is INVALID_STATE', async () => {
      // Prepare
      const walletId = await freshWallet('100.00');
      const link = await created({ walletId, amount: '30.00' });

      // Act
      const cancelled = await service.call('PATCH', `/v1/payment-links/${link.id}`, {
        key: sender.key,
        body: { status: 'CANCELLED' },
      });
      const again = await service.call('PATCH', `/v1/payment-links/${link.id}`, {
        key: sender.key,
        body: { status: 'CANCELLED' },
      });

      // Assess
      expect(expectStatus(cancelled, 200)).toMatchObject({ status: 'CANCELLED', feeCharged: null });
      expect(cancelled.body.cancelledAt).toEqual(expect.any(String));
      expect(expectApiError(again, 409, 'INVALID_STATE').details?.status).toBe('CANCELLED');
      expect(await balancesOf(sender.key, walletId)).toEqual({ balance: '100.00000000', heldBalance: '0.00000000' });
      expectApiError(await claim(link.slug, toWallet(wallets.payee)), 409, 'INVALID_STATE');
    });

    it('expires at expiresAt (its one-time schedule) and releases the hold', async () => {
      // Prepare
      const walletId = await freshWallet('100.00');
      const link = await created({ walletId, amount: '40.00', expiresAt: new Date(Date.now() + 2_000).toISOString() });
      expect(await balancesOf(sender.key, walletId)).toEqual({ balance: '59.75000000', heldBalance: '40.25000000' });

      // Act
      const expired = await eventually(async () => {
        const body = expectStatus(await get(link.id), 200);
        expect(body.status).toBe('EXPIRED');
        return body;
      }, 20_000);

      // Assess
      expect(expired.expiredAt).toEqual(expect.any(String));
      expect(await balancesOf(sender.key, walletId)).toEqual({ balance: '100.00000000', heldBalance: '0.00000000' });
      const publicView = expectStatus(await service.call('GET', `/v1/payment-links/claim/${link.slug}`), 200);
      expect(publicView.status).toBe('EXPIRED');
    });
  });

  describe('claims', () => {
    it('a wallet claim pays the amount to the claimant at once, returns the fee to the sender, SETTLED', async () => {
      // Prepare
      const walletId = await freshWallet('100.00');
      const link = await created({ walletId, amount: '50.00', description: 'Bounty' });
      const before = await balancesOf(recipient.key, wallets.payee);

      // Act
      const response = await claim(link.slug, toWallet(wallets.payee));

      // Assess
      const body = expectStatus(response, 200);
      expect(body).toEqual({
        amount: '50.00',
        currency: 'USD',
        description: 'Bounty',
        status: 'SETTLED',
        expiresAt: link.expiresAt,
        restricted: false,
        environment: 'SANDBOX',
        transactionId: expect.stringMatching(/^txn_/),
      });
      expect(await balancesOf(sender.key, walletId)).toEqual({ balance: '50.00000000', heldBalance: '0.00000000' });
      expect(await balancesOf(recipient.key, wallets.payee)).toEqual({
        balance: (Number(before.balance) + 50).toFixed(8),
        heldBalance: '0.00000000',
      });
      const owner = expectStatus(await get(link.id), 200);
      expect(owner).toMatchObject({
        status: 'SETTLED',
        feeCharged: '0.00',
        transactionId: body.transactionId,
        claim: {
          method: 'wallet',
          destination: { type: 'WALLET', walletId: wallets.payee },
          recipientEmail: null,
          transferId: null,
        },
      });
      expect(owner.settledAt).toEqual(expect.any(String));
      expectApiError(await claim(link.slug, toWallet(wallets.payee)), 409, 'INVALID_STATE');
    });

    it('emits payment_link.created, .claimed and .settled to the sender only', async () => {
      const walletId = await freshWallet('20.00');
      const link = await created({ walletId, amount: '10.00' });
      expectStatus(await claim(link.slug, toWallet(wallets.payee)), 200);
      const types = await eventually(async () => {
        const feed = expectStatus(await service.call('GET', '/v1/events?limit=100', { key: sender.key }), 200) as {
          data: { type: string; data: { id?: string } }[];
        };
        const ofLink = feed.data.filter((event) => event.data.id === link.id).map((event) => event.type);
        expect(ofLink).toEqual(
          expect.arrayContaining(['payment_link.created', 'payment_link.claimed', 'payment_link.settled']),
        );
        return ofLink;
      }, 20_000);
      expect(types).toHaveLength(3);
      const theirs = expectStatus(await service.call('GET', '/v1/events?limit=100', { key: recipient.key }), 200) as {
        data: { type: string }[];
      };
      expect(theirs.data.filter((event) => event.type.startsWith('payment_link.'))).toEqual([]);
    });

    it('refuses a restricted link to others (403) and accepts the named email or wallet', async () => {
      // Prepare
      const walletId = await freshWallet('100.00');
      const other = await ledger.fundedWallet(recipient, undefined, 'Other');
      const byEmail = await created({
        walletId,
        amount: '5.00',
        recipientRestrictions: { emails: ['Jane@Example.com'] },
      });
      const byWallet = await created({
        walletId,
        amount: '6.00',
        recipientRestrictions: { walletIds: [wallets.payee] },
      });

      // Act / Assess
      expectApiError(await claim(byEmail.slug, toWallet(other)), 403, 'RECIPIENT_NOT_ALLOWED');
      expectApiError(
        await claim(byEmail.slug, toWallet(other, { recipientEmail: 'john@example.com' })),
        403,
        'RECIPIENT_NOT_ALLOWED',
      );
      expectApiError(await claim(byWallet.slug, toWallet(other)), 403, 'RECIPIENT_NOT_ALLOWED');
      expect(expectStatus(await get(byEmail.id), 200).status).toBe('ACTIVE');
      const emailClaim = await claim(byEmail.slug, toWallet(other, { recipientEmail: 'jane@EXAMPLE.com' }));
      expect(expectStatus(emailClaim, 200).status).toBe('SETTLED');
      expect(expectStatus(await claim(byWallet.slug, toWallet(wallets.payee)), 200).status).toBe('SETTLED');
      expect(expectStatus(await get(byEmail.id), 200).claim.recipientEmail).toBe('jane@example.com');
      expect(await balancesOf(recipient.key, other)).toMatchObject({ balance: '5.00000000' });
    });

    it('shows nothing but amount, currency, description, status, expiresAt, restricted and environment publicly', async () => {
      const walletId = await freshWallet('100.00');
      const link = await created({
        walletId,
        amount: '7.00',
        description: 'Public text',
        metadata: { secret: 'internal-note' },
        recipientRestrictions: { emails: ['someone@example.com'], walletIds: [wallets.payee] },
      });
      const response = await service.call('GET', `/v1/payment-links/claim/${link.slug}`);
      expect(expectStatus(response, 200)).toEqual({
        amount: '7.00',
        currency: 'USD',
        description: 'Public text',
        status: 'ACTIVE',
        expiresAt: link.expiresAt,
        restricted: true,
        environment: 'SANDBOX',
      });
      for (const hidden of [link.id, walletId, wallets.payee, 'internal-note', 'someone@example.com', link.fee])
        expect(response.text).not.toContain(hidden);
      expectApiError(
        await service.call('GET', '/v1/payment-links/claim/AAAAAAAAAAAAAAAAAAAAAA'),
        404,
        'PAYMENT_LINK_NOT_FOUND',
      );
    });

    it('answers a replay with the same Idempotency-Key the first answer, and another body IDEMPOTENCY_KEY_REUSE', async () => {
      // Prepare
      const walletId = await freshWallet('100.00');
      const link = await created({ walletId, amount: '8.00' });
      const other = await ledger.fundedWallet(recipient, undefined, 'Replay other');

      // Act
      const first = await claim(link.slug, toWallet(wallets.payee), 'claim-key-1');
      const replay = await claim(link.slug, toWallet(wallets.payee), 'claim-key-1');
      const reuse = await claim(link.slug, toWallet(other), 'claim-key-1');

      // Assess
      expect(expectStatus(first, 200).status).toBe('SETTLED');
      expect(expectStatus(replay, 200)).toEqual(first.body);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expectApiError(reuse, 409, 'IDEMPOTENCY_KEY_REUSE');
      expect(await balancesOf(sender.key, walletId)).toEqual({ balance: '92.00000000', heldBalance: '0.00000000' });
      expect(await balancesOf(recipient.key, other)).toMatchObject({ balance: '0.00000000' });
    });

    it("checks the destination: unknown wallet 404 naming the field, the link's own wallet SELF_PAYMENT, bad bank numbers, a mismatched type", async () => {
      const walletId = await freshWallet('100.00');
      const link = await created({ walletId, amount: '9.00' });
      const unknown = expectApiError(await claim(link.slug, toWallet('wal_doesnotexist')), 404, 'WALLET_NOT_FOUND');
      expect(unknown.details?.field).toBe('destination.walletId');
      expectApiError(await claim(link.slug, toWallet(walletId)), 400, 'SELF_PAYMENT');
      const routing = expectApiError(
        await claim(link.slug, {
          method: 'ach',
          destination: { type: 'ACH', routingNumber: '021000022', accountNumber: '000123456789' },
        }),
        400,
        'VALIDATION_ERROR',
      );
      expect(routing.details?.field).toBe('destination.routingNumber');
      const mismatch = expectApiError(
        await claim(link.slug, { method: 'ach', destination: { type: 'WALLET', walletId: wallets.payee } }),
        400,
        'VALIDATION_ERROR',
      );
      expect(mismatch.details?.field).toBe('destination.type');
      const usdc = expectApiError(
        await claim(link.slug, { method: 'usdc', destination: { type: 'USDC', address: '0x1234' } }),
        400,
        'VALIDATION_ERROR',
      );
      expect(usdc.details?.field).toBe('destination.address');
      expect(expectStatus(await get(link.id), 200).status).toBe('ACTIVE');
      expect(await balancesOf(sender.key, walletId)).toEqual({ balance: '90.75000000', heldBalance: '9.25000000' });
    });
  });
});
