import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, type RawItem } from '../fixtures/table-reads.js';
import { DECLINED_CARD, expectError, GOOD_CARD, KYB_BODY, type Organization } from '../fixtures/organizations.js';
import { startTestService, type ApiResponse, type TestService } from '../fixtures/local-service.js';

const WALLET_LIMIT = 3;

describe('audit trail of mutating calls', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ WALLET_LIMIT_PER_ENVIRONMENT: String(WALLET_LIMIT) });
  });
  afterAll(() => service.close());

  /** Runs `act` and returns its response with the audit entries it added to the sandbox partition. */
  async function audited(
    org: Organization,
    act: () => Promise<ApiResponse>,
  ): Promise<{ response: ApiResponse; added: RawItem[] }> {
    // A movement's audit entry is projected from its journal record (visible within 2 s): wait for
    // the projector before counting, so earlier movements are not counted and this one is.
    await service.projected();
    const before = new Set((await auditEntries(service.table, org.organizationId)).map((entry) => entry.id));
    const response = await act();
    await service.projected();
    const added = (await auditEntries(service.table, org.organizationId)).filter((entry) => !before.has(entry.id));
    return { response, added };
  }

  const byOrgKey = (org: Organization) => ({
    actorType: 'API_KEY',
    actorId: org.keyId,
    organizationId: org.organizationId,
    environment: 'SANDBOX',
  });

  function expectOneEntry(added: RawItem[], expected: Record<string, unknown>) {
    expect(added).toHaveLength(1);
    const entry = added[0]!;
    expect(entry).toMatchObject({
      id: expect.stringMatching(/^log_/),
      ipAddress: expect.stringMatching(/\S/),
      ...expected,
    });
    expect(new Date(String(entry.createdAt)).toISOString()).toBe(entry.createdAt);
    return entry;
  }

  it('records a funding as wallet.fund with the amount, the acting key and the IP address', async () => {
    const org = await service.createOrganization();
    const { response, added } = await audited(org, () =>
      service.call('POST', `/v1/wallets/${org.mainWalletId}/fund`, { key: org.key, body: { amount: '12.34' } }),
    );
    expect(response.status).toBe(200);
    const entry = expectOneEntry(added, {
      ...byOrgKey(org),
      action: 'wallet.fund',
      resource: 'wallet',
      resourceId: org.mainWalletId,
    });
    expect(entry.metadata).toMatchObject({ amount: '12.34', transactionId: response.body.transactionId });
  });

  it('writes no audit entry for a funding that fails', async () => {
    const org = await service.createOrganization();
    const other = await service.createOrganization('Other');
    const otherBefore = (await auditEntries(service.table, other.organizationId)).length;
    for (const [walletId, amount] of [
      [org.mainWalletId, '1.005'],
      [org.mainWalletId, '10000.01'],
      [other.mainWalletId, '5.00'],
    ] as const) {
      const { response, added } = await audited(org, () =>
        service.call('POST', `/v1/wallets/${walletId}/fund`, { key: org.key, body: { amount } }),
      );
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(added).toEqual([]);
    }
    expect(await auditEntries(service.table, other.organizationId)).toHaveLength(otherBefore);
  });

  it('records 20 concurrent fundings as 20 entries and an exact balance', async () => {
    const org = await service.createOrganization();
    const { added } = await audited(org, async () => {
      const responses = await Promise.all(
        Array.from({ length: 20 }, () =>
          service.call('POST', `/v1/wallets/${org.mainWalletId}/fund`, { key: org.key, body: { amount: '12.34' } }),
        ),
      );
      expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
      return responses[0]!;
    });
    expect(added.filter((entry) => entry.action === 'wallet.fund')).toHaveLength(20);
    const balance = await service.call('GET', `/v1/wallets/${org.mainWalletId}/balance`, { key: org.key });
    expect(balance.body.balance).toBe('246.80000000');
  });

  it('records a wallet creation and nothing for a rejected or over-limit one', async () => {
    const org = await service.createOrganization();
    const created = await audited(org, () =>
      service.call('POST', '/v1/wallets', { key: org.key, body: { name: 'Audited' } }),
    );
    expect(created.response.status).toBe(201);
    expectOneEntry(created.added, {
      ...byOrgKey(org),
      action: 'wallet.create',
      resource: 'wallet',
      resourceId: created.response.body.id,
    });

    const rejected = await audited(org, () =>
      service.call('POST', '/v1/wallets', { key: org.key, body: { name: 'x', balance: '9' } }),
    );
    expectError(rejected.response, 400, 'VALIDATION_ERROR');
    expect(rejected.added).toEqual([]);

    expect((await service.call('POST', '/v1/wallets', { key: org.key, body: { name: 'third' } })).status).toBe(201);
    const overLimit = await audited(org, () =>
      service.call('POST', '/v1/wallets', { key: org.key, body: { name: 'fourth' } }),
    );
    expectError(overLimit.response, 403, 'WALLET_LIMIT_EXCEEDED');
    expect(overLimit.added).toEqual([]);
  });

  it('records api key creation and revocation with the key id as resource', async () => {
    const org = await service.createOrganization();
    const created = await audited(org, () =>
      service.call('POST', '/v1/api-keys', { key: org.key, body: { name: 'audited', permissions: ['wallets:read'] } }),
    );
    expect(created.response.status).toBe(201);
    const entry = expectOneEntry(created.added, {
      ...byOrgKey(org),
      action: 'api-key.create',
      resourceId: created.response.body.id,
    });
    expect(JSON.stringify(entry)).not.toContain(created.response.body.key);

    const revoked = await audited(org, () =>
      service.call('DELETE', `/v1/api-keys/${created.response.body.id}`, { key: org.key }),
    );
    expect(revoked.response.status).toBe(200);
    expectOneEntry(revoked.added, { ...byOrgKey(org), action: 'api-key.revoke', resourceId: created.response.body.id });

    const unknown = await audited(org, () =>
      service.call('DELETE', '/v1/api-keys/key_doesnotexist000000000000', { key: org.key }),
    );
    expectError(unknown.response, 404, 'API_KEY_NOT_FOUND');
    expect(unknown.added).toEqual([]);
  });

  it('records each activation step and nothing for a declined card or an incomplete activation', async () => {
    const org = await service.createOrganization();
    const step = (method: string, path: string, body?: unknown, key = org.key) =>
      audited(org, () => service.call(method, path, { key, body }));

    const incomplete = await step('POST', '/v1/activation/activate-production');
    expectError(incomplete.response, 400, 'ACTIVATION_INCOMPLETE');
    expect(incomplete.added).toEqual([]);
    const declined = await step('POST', '/v1/activation/billing-method', { type: 'card', number: DECLINED_CARD });
    expect(declined.response.status).toBe(400);
    expect(declined.added).toEqual([]);

    const kyb = await step('POST', '/v1/activation/kyb', KYB_BODY);
    expectOneEntry(kyb.added, { ...byOrgKey(org), action: 'organization.kyb.submit', resourceId: org.organizationId });
    const decision = await step(
      'POST',
      `/v1/internal/organizations/${org.organizationId}/kyb`,
      { status: 'VERIFIED' },
      service.adminKey,
    );
    const decided = expectOneEntry(decision.added, {
      actorType: 'API_KEY',
      action: 'organization.kyb.decide',
      resourceId: org.organizationId,
    });
    expect(decided.actorId).toMatch(/^key_/);
    expect(decided.actorId).not.toBe(org.keyId);
    const tos = await step('POST', '/v1/activation/accept-tos', { tosVersion: '2026-01' });
    expectOneEntry(tos.added, { ...byOrgKey(org), action: 'organization.tos.accept' });
    const card = await step('POST', '/v1/activation/billing-method', { type: 'card', number: GOOD_CARD });
    expectOneEntry(card.added, { ...byOrgKey(org), action: 'organization.billing-method.add' });
    const activated = await step('POST', '/v1/activation/activate-production');
    expect(activated.response.status).toBe(200);
    expectOneEntry(activated.added, { ...byOrgKey(org), action: 'organization.production.activate' });
  });

  it('records the creation of an organization', async () => {
    const org = await service.createOrganization('Born Audited');
    const entries = await auditEntries(service.table, org.organizationId);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      action: 'organization.create',
      resourceId: org.organizationId,
      actorType: 'API_KEY',
    });
  });
});
