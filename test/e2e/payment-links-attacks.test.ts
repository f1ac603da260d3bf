import { beforeAll, describe, expect, it } from 'vitest';
import { ENV } from '../../shared/config/env-names.js';
import { setupE2e } from '../fixtures/e2e-setup.js';
import type { ApiResponse } from '../fixtures/local-service.js';
import { callTool, connectMcp, expectToolError, TEST_MCP_TOKEN, toolNames } from '../fixtures/mcp-client.js';
import { activateProduction, createApiKey, createWallet } from '../fixtures/organizations.js';
import { expectApiError } from '../fixtures/payments-client.js';

/** The body of a response with this status (its text shown when it has another). */
function expectStatus(response: ApiResponse, status: number): any {
  expect(response.status, response.text).toBe(status);
  return response.body;
}

/**
 * Payment links read as an adversary would (adversarial review of issue 22): tenancy and the other
 * environment, leaks to the claimant's organization, money (races, exact funds, idempotency), hostile
 * input, and the spend policies and freezes a link must not get around.
 */
describe('payment links under attack', () => {
  const { service, ledger, owner, claimant, wallets } = setupE2e({
    env: { [ENV.mcpAuthToken]: TEST_MCP_TOKEN },
    organizations: { owner: 'Attack Link Owner', claimant: 'Attack Link Claimant' },
    wallets: {
      payee: { organization: 'claimant', name: 'Claimant wallet' },
    },
  });

  const create = (body: Record<string, unknown>, key = owner.key) =>
    service.call('POST', '/v1/payment-links', { key, body });
  const created = async (body: Record<string, unknown>, key = owner.key) =>
    expectStatus(await create(body, key), 201) as Record<string, any>;
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
  const balancesOf = async (key: string, walletId: string) => {
    const wallet = expectStatus(await service.call('GET', `/v1/wallets/${walletId}`, { key }), 200);
    return { balance: wallet.balance as string, heldBalance: wallet.heldBalance as string };
  };
  const freshWallet = (amount = '100.00') => ledger.fundedWallet(owner, amount, 'Attack wallet');
  const newClaimantWallet = () => ledger.fundedWallet(claimant, undefined, 'Claimant target');

  describe('policies and freezes a link must not get around', () => {
    it('a recipient-listing policy is not bypassed by adding an email to a wallet-restricted link', async () => {
      // Prepare: the policy allows paying only `allowed`; the attacker controls `elsewhere`.
      const walletId = await freshWallet('100.00');
      const allowed = await newClaimantWallet();
      const elsewhere = await newClaimantWallet();
      await ledger.createPolicy(owner.key, { walletId, allowedRecipients: [allowed] });

      // Act: a link "restricted" to the allowed wallet, plus an email anyone can type.
      const response = await create({
        walletId,
        amount: '10.00',
        recipientRestrictions: { walletIds: [allowed], emails: ['attacker@example.com'] },
      });
      let claimStatus: number | undefined;
      if (response.status === 201) {
        const claimed = await claim(
          response.body.slug,
          toWallet(elsewhere, { recipientEmail: 'attacker@example.com' }),
        );
        claimStatus = claimed.status;
      }

      // Assess: either the link is refused at creation (it names a recipient that is not a wallet the
      // policy allows), or the claim to a wallet the policy does not allow is refused; never money
      // paid to a recipient the policy forbids.
      expect({
        created: response.status,
        claim: claimStatus,
        elsewhere: (await balancesOf(claimant.key, elsewhere)).balance,
      }).toEqual({ created: 403, claim: undefined, elsewhere: '0.00000000' });
      expect(response.body.error?.code).toBe('POLICY_DENIED');
    });

    it("a paused agent's link can not be claimed: no money leaves a frozen wallet (WALLET_FROZEN)", async () => {
      // Prepare
      const agent = await ledger.createAgent(owner, 'Paused link agent');
      await ledger.fund(owner.key, agent.walletId, '50.00');
      const link = await created({ walletId: agent.walletId, amount: '20.00' }, agent.key);
      expectStatus(await service.call('POST', `/v1/agents/${agent.walletId}/pause`, { key: owner.key }), 200);
      const target = await newClaimantWallet();

      // Act
      const response = await claim(link.slug, toWallet(target));

      // Assess: as a paused agent's queued payment fails on approval (WALLET_FROZEN), nothing moves.
      expectApiError(response, 403, 'WALLET_FROZEN');
      expect(await balancesOf(claimant.key, target)).toEqual({
        balance: '0.00000000',
        heldBalance: '0.00000000',
      });
      expect(await balancesOf(owner.key, agent.walletId)).toEqual({
        balance: '29.75000000',
        heldBalance: '20.25000000',
      });
    });

    it('accepts `currency: "USD"` at creation, as interface-spec 4.8 lists it (default USD)', async () => {
      const walletId = await freshWallet('20.00');
      const link = await created({ walletId, amount: '5.00', currency: 'USD' });
      expect(link.currency).toBe('USD');
    });
  });

  describe('what the owner reads back', () => {
    /** A request past the schema checker of `service.call` (to reach what follows a mis-published answer). */
    const rawCall = async (method: string, path: string, key: string, body?: unknown) => {
      const response = await fetch(service.baseUrl + path, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return { status: response.status, body: (await response.json()) as Record<string, any> };
    };

    it('the 202 APPROVAL_REQUIRED of a link matches its published schema (details.approvalId, details.paymentLinkId)', async () => {
      const walletId = await freshWallet('30.00');
      await ledger.createPolicy(owner.key, { walletId, requireHumanApproval: true });
      const read = await service
        .call('POST', '/v1/payment-links', { key: owner.key, body: { walletId, amount: '10.00' } })
        .then((response) => ({ status: response.status, text: response.text }))
        .catch((error: Error) => ({ status: 0, text: error.message }));
      expect(read.status, read.text).toBe(202);
    });

    it('a link queued for approval: its approval reads back as its published view says (payment.to a wallet id)', async () => {
      // Prepare
      const walletId = await freshWallet('30.00');
      await ledger.createPolicy(owner.key, { walletId, requireHumanApproval: true });
      const queued = await rawCall('POST', '/v1/payment-links', owner.key, { walletId, amount: '10.00' });
      expect(queued.status).toBe(202);

      // Act
      const read = await rawCall('GET', `/v1/approvals/${queued.body.error.details.approvalId}`, owner.key);

      // Assess: approvalView publishes payment.to as a wallet id (wal_...).
      expect(read.status).toBe(200);
      expect(read.body.payment.to).toMatch(/^wal_/);
    });

    it("the owner can read the wallet claim's movement (GET /v1/payments/{transactionId})", async () => {
      const walletId = await freshWallet('30.00');
      const link = await created({ walletId, amount: '10.00' });
      const answer = expectStatus(await claim(link.slug, toWallet(await newClaimantWallet())), 200);
      const read = await service
        .call('GET', `/v1/payments/${answer.transactionId}`, { key: owner.key })
        .then((response) => ({ status: response.status, text: response.text }))
        .catch((error: Error) => ({ status: 0, text: error.message }));
      expect([200, 404], read.text).toContain(read.status);
    });
  });

  describe('the other environment', () => {
    let link: Record<string, any>;
    let live: string;
    let productionWallet: string;

    beforeAll(async () => {
      const walletId = await freshWallet('30.00');
      link = await created({ walletId, amount: '10.00' });
      await activateProduction(service, owner);
      live = (
        await createApiKey(service, owner, {
          permissions: ['payments:read', 'payments:write', 'wallets:read', 'wallets:write'],
          environment: 'PRODUCTION',
        })
      ).key;
      productionWallet = (await createWallet(service, live, 'Live wallet')).id;
    });

    it('a live key on a sandbox link: 403 ENVIRONMENT_MISMATCH, and none listed', async () => {
      expectApiError(
        await service.call('GET', `/v1/payment-links/${link.id}`, { key: live }),
        403,
        'ENVIRONMENT_MISMATCH',
      );
      expectApiError(
        await service.call('PATCH', `/v1/payment-links/${link.id}`, { key: live, body: { status: 'CANCELLED' } }),
        403,
        'ENVIRONMENT_MISMATCH',
      );
      expect(expectStatus(await service.call('GET', '/v1/payment-links', { key: live }), 200).data).toEqual([]);
      const fromSandboxWallet = await create({ walletId: link.walletId, amount: '1.00' }, live);
      expect([403, 404], fromSandboxWallet.text).toContain(fromSandboxWallet.status);
    });

    it('a sandbox link can not be claimed to a production wallet (sandbox money never reaches production)', async () => {
      const response = await claim(link.slug, toWallet(productionWallet));
      expectApiError(response, 404, 'WALLET_NOT_FOUND');
      expect(response.body.error.details).toEqual({ field: 'destination.walletId' });
      expect(
        expectStatus(await service.call('GET', `/v1/payment-links/${link.id}`, { key: owner.key }), 200).status,
      ).toBe('ACTIVE');
      expect((await balancesOf(live, productionWallet)).balance).toBe('0.00000000');
    });
  });

  describe("what the claimant's organization sees", () => {
    it('the claim answer, events, statement, payments and audit of the claimant show nothing of the link', async () => {
      // Prepare
      const walletId = await freshWallet('40.00');
      const target = await newClaimantWallet();
      const link = await created({
        walletId,
        amount: '12.34',
        description: 'Visible description',
        metadata: { secretjob: 'SECRET-META-VALUE' },
        recipientRestrictions: { emails: ['Claimer@Example.com'], walletIds: [] },
      });
      const secrets = [link.id, walletId, 'SECRET-META-VALUE', 'secretjob', owner.organizationId, link.slug];

      // Act
      const answer = expectStatus(
        await claim(link.slug, toWallet(target, { recipientEmail: 'claimer@example.com' }), 'leak-1'),
        200,
      );
      const seen = {
        answer,
        publicView: expectStatus(await service.call('GET', `/v1/payment-links/claim/${link.slug}`), 200),
        events: expectStatus(await service.call('GET', '/v1/events?limit=100', { key: claimant.key }), 200),
        statement: expectStatus(
          await service.call('GET', `/v1/wallets/${target}/transactions`, { key: claimant.key }),
          200,
        ),
        payments: expectStatus(await service.call('GET', '/v1/payments?limit=100', { key: claimant.key }), 200),
        payment: (await service.call('GET', `/v1/payments/${answer.transactionId}`, { key: claimant.key })).body,
        audit: expectStatus(await service.call('GET', '/v1/audit-logs?limit=100', { key: claimant.key }), 200),
        replay: (await claim(link.slug, toWallet(target, { recipientEmail: 'claimer@example.com' }), 'leak-1')).body,
        again: (await claim(link.slug, toWallet(target))).body,
      };

      // Assess
      expect(Object.keys(answer).sort()).toEqual(
        [
          'amount',
          'currency',
          'description',
          'environment',
          'expiresAt',
          'restricted',
          'status',
          'transactionId',
        ].sort(),
      );
      expect(seen.replay).toEqual(answer);
      expect(seen.again.error.code).toBe('INVALID_STATE');
      const text = JSON.stringify(seen);
      for (const secret of secrets) expect(text, `leaks ${secret}`).not.toContain(secret);
      expect(seen.statement.data[0]).toMatchObject({ amount: '12.34000000', description: 'Visible description' });
    });

    it("a replay of a claim with another destination is IDEMPOTENCY_KEY_REUSE, and its details do not reveal the link's id", async () => {
      // Prepare
      const walletId = await freshWallet('20.00');
      const target = await newClaimantWallet();
      const link = await created({ walletId, amount: '4.00' });
      expectStatus(await claim(link.slug, toWallet(target), 'reuse-1'), 200);

      // Act: the same key, another destination (the attacker's second try).
      const reused = await claim(link.slug, toWallet(await newClaimantWallet()), 'reuse-1');

      // Assess: the public answer names the key the client sent, nothing of the link.
      const error = expectApiError(reused, 409, 'IDEMPOTENCY_KEY_REUSE');
      expect(JSON.stringify(reused.body)).not.toContain(link.id);
      expect(error.details).toEqual({ idempotencyKey: 'reuse-1' });
    });
  });

  describe('money', () => {
    it('counts amount + fee in the period spend, returns the whole hold on cancel and the fee on a wallet claim', async () => {
      // Prepare: at most 60.00 a day.
      const walletId = await freshWallet('200.00');
      const target = await newClaimantWallet();
      await ledger.createPolicy(owner.key, { walletId, dailyLimit: '60.00' });
      const cancelled = await created({ walletId, amount: '50.00' });
      expectStatus(
        await service.call('PATCH', `/v1/payment-links/${cancelled.id}`, {
          key: owner.key,
          body: { status: 'CANCELLED' },
        }),
        200,
      );

      // Act
      const claimed = await created({ walletId, amount: '50.00' });
      expectStatus(await claim(claimed.slug, toWallet(target)), 200);
      // 50.00 spent (the fee came back): 9.75 + 0.25 fits exactly; one cent more does not.
      const over = await create({ walletId, amount: '9.76' });
      const fits = await create({ walletId, amount: '9.75' });

      // Assess
      expectApiError(over, 403, 'POLICY_DENIED');
      expectStatus(fits, 201);
    });

    it('the owner can not claw a wallet claim back by reversing its movement', async () => {
      const walletId = await freshWallet('30.00');
      const target = await newClaimantWallet();
      const link = await created({ walletId, amount: '10.00' });
      const answer = expectStatus(await claim(link.slug, toWallet(target)), 200);
      const reversed = await service.call('POST', `/v1/payments/${answer.transactionId}/reverse`, {
        key: owner.key,
        body: {},
      });
      expect([403, 404, 409], reversed.text).toContain(reversed.status);
      expect((await balancesOf(claimant.key, target)).balance).toBe('10.00000000');
    });

    it('parallel creates can not hold more than the wallet has', async () => {
      const walletId = await freshWallet('30.00');
      const answers = await Promise.all(Array.from({ length: 4 }, () => create({ walletId, amount: '10.00' })));
      expect(answers.filter((response) => response.status === 201)).toHaveLength(2);
      for (const response of answers.filter((r) => r.status !== 201))
        expect(response.body.error.code).toBe('INSUFFICIENT_FUNDS');
      expect(await balancesOf(owner.key, walletId)).toEqual({ balance: '9.50000000', heldBalance: '20.50000000' });
    });

    it("a claimant can not write an identity of its choosing as the actor of the owner's audit entry", async () => {
      // Prepare: an unrestricted link; the claimant types any email it likes.
      const walletId = await freshWallet('20.00');
      const link = await created({ walletId, amount: '3.00' });

      // Act
      expectStatus(
        await claim(
          link.slug,
          toWallet(await newClaimantWallet(), { recipientEmail: 'ceo@attack-link-owner.example' }),
        ),
        200,
      );

      // Assess: invoices' public routes audit the customer the organization knows (its id); a link's
      // claimant is unknown: the actor must not be the unverified text (it may go in the metadata).
      const entries = expectStatus(
        await service.call('GET', `/v1/audit-logs?resource=${link.id}&limit=100`, { key: owner.key }),
        200,
      ).data as { action: string; actorType: string; actorId: string }[];
      const claimEntry = entries.find((entry) => entry.action === 'payment-link.claim');
      expect(claimEntry, JSON.stringify(entries)).toBeDefined();
      expect(claimEntry!.actorId).not.toBe('ceo@attack-link-owner.example');
    });

    it('a wallet holding exactly amount + fee can make the link; one cent less can not', async () => {
      const exact = await freshWallet('50.25');
      const short = await freshWallet('50.24');
      const link = await created({ walletId: exact, amount: '50.00' });
      expect(link.fee).toBe('0.25');
      expect(await balancesOf(owner.key, exact)).toEqual({ balance: '0.00000000', heldBalance: '50.25000000' });
      expectApiError(await create({ walletId: short, amount: '50.00' }), 402, 'INSUFFICIENT_FUNDS');
      expect(await balancesOf(owner.key, short)).toEqual({ balance: '50.24000000', heldBalance: '0.00000000' });
    });

    it('a cancel racing claims: exactly one wins, the hold is released or captured once', async () => {
      const walletId = await freshWallet('30.00');
      const target = await newClaimantWallet();
      const link = await created({ walletId, amount: '20.00' });
      const [cancel, ...claims] = await Promise.all([
        service.call('PATCH', `/v1/payment-links/${link.id}`, { key: owner.key, body: { status: 'CANCELLED' } }),
        claim(link.slug, toWallet(target)),
        claim(link.slug, toWallet(target)),
        claim(link.slug, toWallet(target)),
      ]);
      const wins = [cancel!, ...claims].filter((response) => response.status === 200);
      expect(wins).toHaveLength(1);
      const final = expectStatus(await service.call('GET', `/v1/payment-links/${link.id}`, { key: owner.key }), 200);
      const paid = final.status === 'SETTLED';
      expect(await balancesOf(owner.key, walletId)).toEqual({
        balance: paid ? '10.00000000' : '30.00000000',
        heldBalance: '0.00000000',
      });
      expect((await balancesOf(claimant.key, target)).balance).toBe(paid ? '20.00000000' : '0.00000000');
      await ledger.expectLedgerBalanced();
    });

    it("an Idempotency-Key used on one link does not answer another link's claim", async () => {
      const walletId = await freshWallet('30.00');
      const target = await newClaimantWallet();
      const first = await created({ walletId, amount: '5.00' });
      const second = await created({ walletId, amount: '7.00' });
      const a = expectStatus(await claim(first.slug, toWallet(target), 'shared-key'), 200);
      const b = expectStatus(await claim(second.slug, toWallet(target), 'shared-key'), 200);
      expect(b.amount).toBe('7.00');
      expect(b.transactionId).not.toBe(a.transactionId);
      expect((await balancesOf(claimant.key, target)).balance).toBe('12.00000000');
    });

    it('refuses amounts with 3 decimals, zero, negative, over the maximum, and a claim to a frozen wallet', async () => {
      const walletId = await freshWallet('30.00');
      for (const amount of ['1.001', '0', '-1.00', '1000000000.01', '1e3', 'NaN'])
        expect([400, 422], `${amount}`).toContain((await create({ walletId, amount })).status);
      const agent = await ledger.createAgent(claimant, 'Frozen claimant');
      expectStatus(await service.call('POST', `/v1/agents/${agent.walletId}/pause`, { key: claimant.key }), 200);
      const link = await created({ walletId, amount: '3.00' });
      expectApiError(await claim(link.slug, toWallet(agent.walletId)), 403, 'WALLET_FROZEN');
      expect(
        expectStatus(await service.call('GET', `/v1/payment-links/${link.id}`, { key: owner.key }), 200).status,
      ).toBe('ACTIVE');
    });
  });

  describe('hostile input', () => {
    it('refuses unknown fields, oversize lists and strings, control characters, bad dates and other PATCHes', async () => {
      const walletId = await freshWallet('30.00');
      const many = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i));
      const bad: Record<string, unknown>[] = [
        { walletId, amount: '1.00', status: 'SETTLED' },
        { walletId, amount: '1.00', recipientRestrictions: { emails: many(21, (i) => `a${i}@example.com`) } },
        { walletId, amount: '1.00', recipientRestrictions: { walletIds: many(21, (i) => `wal_${i}`) } },
        { walletId, amount: '1.00', recipientRestrictions: { emails: ['not-an-email'] } },
        { walletId, amount: '1.00', recipientRestrictions: { phones: ['1'] } },
        { walletId, amount: '1.00', description: 'x'.repeat(1025) },
        { walletId, amount: '1.00', description: 'bell\u0007' },
        { walletId, amount: '1.00', metadata: { ['k\u0000']: 'v' } },
        { walletId, amount: '1.00', expiresAt: 'tomorrow' },
        { walletId, amount: '1.00', expiresAt: new Date(Date.now() - 60_000).toISOString() },
        { walletId, amount: '1.00', expiresAt: new Date(Date.now() + 91 * 24 * 3600_000).toISOString() },
      ];
      for (const body of bad) expectApiError(await create(body), 400, 'VALIDATION_ERROR');
      expect(await balancesOf(owner.key, walletId)).toEqual({ balance: '30.00000000', heldBalance: '0.00000000' });
      const link = await created({ walletId, amount: '1.00' });
      for (const body of [{ status: 'ACTIVE' }, { status: 'CANCELLED', amount: '2.00' }, { status: 'SETTLED' }, {}])
        expectApiError(
          await service.call('PATCH', `/v1/payment-links/${link.id}`, { key: owner.key, body }),
          400,
          'VALIDATION_ERROR',
        );
      const claimBad: Record<string, unknown>[] = [
        { ...toWallet(wallets.payee), extra: 1 },
        { method: 'wallet', destination: { type: 'WALLET', walletId: wallets.payee, organizationId: 'x' } },
        { method: 'ach', destination: { type: 'WALLET', walletId: wallets.payee } },
        { ...toWallet(wallets.payee), recipientEmail: `${'a'.repeat(300)}@example.com` },
      ];
      for (const body of claimBad) expectApiError(await claim(link.slug, body), 400, 'VALIDATION_ERROR');
      for (const slug of ['x'.repeat(400), '..%2F..%2Fwallets', '%00', 'lnk_' + 'a'.repeat(24)])
        expect([400, 404]).toContain((await service.call('GET', `/v1/payment-links/claim/${slug}`)).status);
      expect(
        expectStatus(await service.call('GET', `/v1/payment-links/${link.id}`, { key: owner.key }), 200).status,
      ).toBe('ACTIVE');
    });
  });

  describe('MCP', () => {
    it("an agent key lists the link tools and sees, cancels, creates and lists only its own wallet's links", async () => {
      // Prepare
      const agent = await ledger.createAgent(owner, 'MCP link agent');
      await ledger.fund(owner.key, agent.walletId, '20.00');
      const others = await created({ walletId: await freshWallet('10.00'), amount: '1.00' });
      const own = await created({ walletId: agent.walletId, amount: '2.00' }, agent.key);
      const client = await connectMcp(service.baseUrl, agent.key);

      try {
        // Act / Assess
        expect(await toolNames(client)).toEqual(
          expect.arrayContaining([
            'cancel_payment_link',
            'create_payment_link',
            'get_payment_link',
            'list_payment_links',
          ]),
        );
        expectToolError(await callTool(client, 'get_payment_link', { id: others.id }), 'PAYMENT_LINK_NOT_FOUND');
        expectToolError(
          await callTool(client, 'cancel_payment_link', { id: others.id, status: 'CANCELLED' }),
          'PAYMENT_LINK_NOT_FOUND',
        );
        expectToolError(
          await callTool(client, 'create_payment_link', { walletId: others.walletId, amount: '1.00' }),
          'WALLET_NOT_FOUND',
        );
        expectToolError(
          await callTool(client, 'list_payment_links', { walletId: others.walletId }),
          'WALLET_NOT_FOUND',
        );
        const listed = await callTool(client, 'list_payment_links', {});
        expect((listed.structuredContent as { data: { id: string }[] }).data.map((link) => link.id)).toEqual([own.id]);
      } finally {
        await client.close();
      }
    });

    it('cancel_payment_link takes the link id alone (contract-22: input `id`), as freeze_card takes the card id', async () => {
      const agent = await ledger.createAgent(owner, 'MCP cancel agent');
      await ledger.fund(owner.key, agent.walletId, '20.00');
      const own = await created({ walletId: agent.walletId, amount: '2.00' }, agent.key);
      const client = await connectMcp(service.baseUrl, agent.key);
      try {
        const cancelled = await callTool(client, 'cancel_payment_link', { id: own.id });
        expect(cancelled.isError ?? false, JSON.stringify(cancelled.content)).toBe(false);
        expect((cancelled.structuredContent as { status: string }).status).toBe('CANCELLED');
      } finally {
        await client.close();
      }
    });
  });
});
