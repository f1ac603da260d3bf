import { describe, expect, it } from 'vitest';
import { setupE2e } from '../fixtures/e2e-setup.js';
import { expectApiError, expectStatus } from '../fixtures/payments-client.js';

describe('policies: CRUD under /v1/policies', () => {
  const { service, ledger, org, otherOrg } = setupE2e({ organizations: { org: 'Policy Org', otherOrg: 'Other Org' } });

  const post = (body: unknown, key = org.key) => service.call('POST', '/v1/policies', { key, body });
  const get = (id: string, key = org.key) => service.call('GET', `/v1/policies/${id}`, { key });
  const patch = (id: string, body: unknown, key = org.key) =>
    service.call('PATCH', `/v1/policies/${id}`, { key, body });
  const remove = (id: string, key = org.key) => service.call('DELETE', `/v1/policies/${id}`, { key });

  async function walletPair(amount = '500.00') {
    return { payer: await ledger.fundedWallet(org, amount), payee: await ledger.fundedWallet(org, undefined, 'Payee') };
  }

  describe('create and read', () => {
    it('creates a policy: 201 with every rule as sent, amounts as decimal strings', async () => {
      // Prepare
      const { payer, payee } = await walletPair();

      // Act
      const response = await post({
        walletId: payer,
        name: 'Travel',
        maxTransactionAmount: 250,
        requireHumanApproval: false,
        dailyLimit: '1000',
        weeklyLimit: '2000.50',
        monthlyLimit: '5000.00',
        allowedRecipients: [payee],
        blockedRecipients: ['wal_blocked0000000000000000'],
        allowedHoursUtc: { start: 8, end: 18 },
        approvalThreshold: '100.00',
      });

      // Assess
      expectStatus(response, 201);
      expect(response.body).toMatchObject({
        id: expect.stringMatching(/^pol_/),
        walletId: payer,
        name: 'Travel',
        maxTransactionAmount: '250.00',
        requireHumanApproval: false,
        dailyLimit: '1000.00',
        weeklyLimit: '2000.50',
        monthlyLimit: '5000.00',
        allowedRecipients: [payee],
        blockedRecipients: ['wal_blocked0000000000000000'],
        allowedHoursUtc: { start: 8, end: 18 },
        approvalThreshold: '100.00',
      });
      const fetched = await get(response.body.id);
      expectStatus(fetched, 200);
      expect(fetched.body).toEqual(response.body);
    });

    it('writes a policy.create audit entry', async () => {
      const { payer } = await walletPair();
      const policy = await ledger.createPolicy(org.key, { walletId: payer });
      const entries = await ledger.auditOf(org.organizationId);
      expect(entries.find((e) => e.resourceId === policy.id)).toMatchObject({
        action: 'policy.create',
        actorType: 'API_KEY',
        actorId: org.keyId,
      });
    });

    it('lists the policies of a wallet with ?walletId, and all of the organization without it', async () => {
      // Prepare
      const { payer: first } = await walletPair();
      const { payer: second } = await walletPair();
      const a = await ledger.createPolicy(org.key, { walletId: first, name: 'A' });
      const b = await ledger.createPolicy(org.key, { walletId: first, name: 'B' });
      const c = await ledger.createPolicy(org.key, { walletId: second, name: 'C' });

      // Act
      const byWallet = await service.call('GET', `/v1/policies?walletId=${first}`, { key: org.key });
      const all = await service.call('GET', '/v1/policies?limit=100', { key: org.key });

      // Assess
      expectStatus(byWallet, 200);
      expect(byWallet.body.data.map((p: { id: string }) => p.id).sort()).toEqual([a.id, b.id].sort());
      expect(all.body.data.map((p: { id: string }) => p.id)).toEqual(expect.arrayContaining([a.id, b.id, c.id]));
      expect((await service.call('GET', '/v1/policies', { key: otherOrg.key })).body.data).toEqual([]);
    });

    it("answers 404 POLICY_NOT_FOUND for an unknown policy and for another organization's policy", async () => {
      const { payer } = await walletPair();
      const policy = await ledger.createPolicy(org.key, { walletId: payer });
      expectApiError(await get('pol_doesnotexist000000000000'), 404, 'POLICY_NOT_FOUND');
      expectApiError(await get(policy.id, otherOrg.key), 404, 'POLICY_NOT_FOUND');
      expectApiError(await patch(policy.id, { name: 'Mine now' }, otherOrg.key), 404, 'POLICY_NOT_FOUND');
      expectApiError(await remove(policy.id, otherOrg.key), 404, 'POLICY_NOT_FOUND');
    });
  });

  describe('create errors', () => {
    it("answers 404 WALLET_NOT_FOUND for an unknown wallet or another organization's wallet", async () => {
      const foreign = await ledger.fundedWallet(otherOrg, undefined, 'Foreign');
      const body = { name: 'P', maxTransactionAmount: '10.00', requireHumanApproval: false };
      expectApiError(await post({ ...body, walletId: 'wal_doesnotexist000000000000' }), 404, 'WALLET_NOT_FOUND');
      expectApiError(await post({ ...body, walletId: foreign }), 404, 'WALLET_NOT_FOUND');
    });

    it.each([
      ['an unknown field', { status: 'ACTIVE' }],
      ['a missing name', { name: undefined }],
      ['a missing requireHumanApproval', { requireHumanApproval: undefined }],
      ['equal start and end hours', { allowedHoursUtc: { start: 9, end: 9 } }],
      ['an hour out of range', { allowedHoursUtc: { start: 9, end: 25 } }],
    ])('answers 400 VALIDATION_ERROR for %s', async (_what, change) => {
      const { payer } = await walletPair();
      const body = {
        walletId: payer,
        name: 'P',
        maxTransactionAmount: '10.00',
        requireHumanApproval: false,
        ...change,
      };
      expectApiError(await post(body), 400, 'VALIDATION_ERROR');
    });

    it.each([['-1.00'], ['abc'], ['1.005']])('answers 400 INVALID_AMOUNT for the limit %j', async (amount) => {
      const { payer } = await walletPair();
      expectApiError(
        await post({ walletId: payer, name: 'P', maxTransactionAmount: amount, requireHumanApproval: false }),
        400,
        'INVALID_AMOUNT',
      );
      expectApiError(
        await post({
          walletId: payer,
          name: 'P',
          maxTransactionAmount: '1.00',
          requireHumanApproval: false,
          dailyLimit: amount,
        }),
        400,
        'INVALID_AMOUNT',
      );
    });

    it('answers 403 PERMISSION_DENIED to an organization key without wallets:write, and to an agent key', async () => {
      // Prepare
      const { payer } = await walletPair();
      const reader = await ledger.createKey(org, ['wallets:read', 'payments:write']);
      const agent = await ledger.createAgent(org, 'Self-governing');
      const body = { name: 'P', maxTransactionAmount: '10.00', requireHumanApproval: false };

      // Act
      const byReader = await post({ ...body, walletId: payer }, reader.key);
      const byAgent = await post({ ...body, walletId: agent.walletId }, agent.key);

      // Assess
      expectApiError(byReader, 403, 'PERMISSION_DENIED');
      expectApiError(byAgent, 403, 'PERMISSION_DENIED');
      expect(
        (await service.call('GET', `/v1/policies?walletId=${agent.walletId}`, { key: org.key })).body.data,
      ).toEqual([]);
    });

    it('answers 403 PERMISSION_DENIED for reads without wallets:read, and 401 without a key', async () => {
      const { payer } = await walletPair();
      const policy = await ledger.createPolicy(org.key, { walletId: payer });
      const payerKey = await ledger.createKey(org, ['payments:read']);
      expectApiError(await get(policy.id, payerKey.key), 403, 'PERMISSION_DENIED');
      expectApiError(await service.call('GET', '/v1/policies', { key: payerKey.key }), 403, 'PERMISSION_DENIED');
      expectApiError(await service.call('GET', '/v1/policies'), 401, 'UNAUTHORIZED');
    });

    it("lets an agent key read its own wallet's policies but not another wallet's", async () => {
      // Prepare
      const { payer } = await walletPair();
      const other = await ledger.createPolicy(org.key, { walletId: payer });
      const agent = await ledger.createAgent(org, 'Reader');
      const own = await ledger.createPolicy(org.key, { walletId: agent.walletId });

      // Act
      const ownRead = await get(own.id, agent.key);
      const otherRead = await get(other.id, agent.key);
      const listed = await service.call('GET', '/v1/policies', { key: agent.key });

      // Assess
      expectStatus(ownRead, 200);
      expectApiError(otherRead, 404, 'POLICY_NOT_FOUND');
      expect(listed.body.data.map((p: { id: string }) => p.id)).toEqual([own.id]);
    });
  });

  describe('update and delete', () => {
    it('PATCH lowers the maximum and the next payment is judged by it at once', async () => {
      // Prepare
      const { payer, payee } = await walletPair();
      const policy = await ledger.createPolicy(org.key, { walletId: payer, maxTransactionAmount: '100.00' });
      await ledger.paid(org.key, { from: payer, to: payee, amount: '50.00' });

      // Act
      const updated = await patch(policy.id, { maxTransactionAmount: '40.00' });
      const response = await ledger.pay(org.key, { from: payer, to: payee, amount: '50.00' });

      // Assess
      expectStatus(updated, 200);
      expect(updated.body).toMatchObject({ id: policy.id, maxTransactionAmount: '40.00', name: 'Policy' });
      expect(expectApiError(response, 403, 'POLICY_DENIED').details).toMatchObject({ rule: 'maxTransactionAmount' });
      expect((await get(policy.id)).body.maxTransactionAmount).toBe('40.00');
      const entries = await ledger.auditOf(org.organizationId);
      expect(entries.find((e) => e.resourceId === policy.id && e.action === 'policy.update')).toBeDefined();
    });

    it('PATCH with null removes an optional rule', async () => {
      // Prepare
      const { payer, payee } = await walletPair();
      const policy = await ledger.createPolicy(org.key, { walletId: payer, dailyLimit: '10.00' });

      // Act
      const updated = await patch(policy.id, { dailyLimit: null });
      const response = await ledger.pay(org.key, { from: payer, to: payee, amount: '20.00' });

      // Assess
      expect(updated.body.dailyLimit).toBeNull();
      expectStatus(response, 200);
    });

    it('answers 400 for an invalid PATCH and 403 PERMISSION_DENIED without wallets:write', async () => {
      const { payer } = await walletPair();
      const policy = await ledger.createPolicy(org.key, { walletId: payer });
      const reader = await ledger.createKey(org, ['wallets:read']);
      expectApiError(await patch(policy.id, { walletId: payer }), 400, 'VALIDATION_ERROR');
      expectApiError(await patch(policy.id, { maxTransactionAmount: '-5' }), 400, 'INVALID_AMOUNT');
      expectApiError(await patch(policy.id, { name: 'x' }, reader.key), 403, 'PERMISSION_DENIED');
      expectApiError(await remove(policy.id, reader.key), 403, 'PERMISSION_DENIED');
    });

    it('DELETE stops the policy at once; afterwards GET, PATCH and DELETE answer 404 POLICY_NOT_FOUND', async () => {
      // Prepare
      const { payer, payee } = await walletPair();
      const policy = await ledger.createPolicy(org.key, { walletId: payer, maxTransactionAmount: '0' });
      expectApiError(await ledger.pay(org.key, { from: payer, to: payee, amount: '1.00' }), 403, 'POLICY_DENIED');

      // Act
      const deleted = await remove(policy.id);
      const payment = await ledger.pay(org.key, { from: payer, to: payee, amount: '1.00' });

      // Assess
      expectStatus(deleted, 200);
      expect(deleted.body).toMatchObject({ id: policy.id, deleted: true });
      expectStatus(payment, 200);
      expectApiError(await get(policy.id), 404, 'POLICY_NOT_FOUND');
      expectApiError(await patch(policy.id, { name: 'Back' }), 404, 'POLICY_NOT_FOUND');
      expectApiError(await remove(policy.id), 404, 'POLICY_NOT_FOUND');
      expect((await service.call('GET', `/v1/policies?walletId=${payer}`, { key: org.key })).body.data).toEqual([]);
      const entries = await ledger.auditOf(org.organizationId);
      expect(entries.find((e) => e.resourceId === policy.id && e.action === 'policy.delete')).toBeDefined();
    });
  });
});
