import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../fixtures/organizations.js';
import {
  auditList,
  auditLogsPath,
  auditPages,
  auditPartition,
  idsOf,
  type AuditItem,
} from '../fixtures/audit-reads.js';
import { buildAuditWorld, signatures, type AuditWorld, type WorldAgent } from '../fixtures/audited-organization.js';
import { startTestService, type TestService } from '../fixtures/local-service.js';

describe('audit logs: what a wallet-scoped (agent) key and another organization may see', () => {
  let service: TestService;
  let world: AuditWorld;
  /** The stored entries of the organization, newest first (they carry the wallet the API does not show). */
  let stored: AuditItem[];
  beforeAll(async () => {
    service = await startTestService();
    world = await buildAuditWorld(service);
    stored = await auditPartition(service.table, world.organizationId);
  });
  afterAll(() => service.close());

  const ofWallet = (walletId: string) => stored.filter((entry) => entry.walletId === walletId);
  const agents = () =>
    [
      ['A', world.agentA, world.agentB],
      ['B', world.agentB, world.agentA],
    ] as Array<[string, WorldAgent, WorldAgent]>;

  it('shows an agent exactly the entries of its own wallet, newest first, across pages', async () => {
    for (const [name, self] of agents()) {
      // Act
      const served = (await auditPages(service, self.key, {}, 3)).flatMap((page) => page.data);

      // Assess
      expect(idsOf(served), name).toEqual(idsOf(ofWallet(self.id)));
      expect(signatures(served), name).toEqual(signatures(world.recorded.filter((r) => r.walletId === self.id)));
      expect(served.length, name).toBeGreaterThan(0);
    }
  });

  it("never shows an agent the other agent's entries", async () => {
    for (const [name, self, other] of agents()) {
      // Act
      const served = await auditList(service, self.key);

      // Assess
      const foreign = new Set(idsOf(ofWallet(other.id)));
      expect(
        served.filter((entry) => foreign.has(entry.id)),
        name,
      ).toEqual([]);
      expect(
        served.filter((entry) => entry.actorId === other.keyId),
        name,
      ).toEqual([]);
    }
  });

  it("returns nothing to an agent filtering by the other agent's resources or key", async () => {
    for (const [name, self, other] of agents()) {
      for (const query of [
        { resource: other.id },
        { resource: other.paymentIds[0]! },
        { actorId: other.keyId },
        { resource: other.id, action: 'wallet.create' },
      ]) {
        // Act
        const response = await service.call('GET', auditLogsPath(query), { key: self.key });

        // Assess
        expect(response.status, `${name} ${JSON.stringify(query)}`).toBe(200);
        expect(response.body.data, `${name} ${JSON.stringify(query)}`).toEqual([]);
      }
    }
  });

  it('applies filters within the agent wallet only', async () => {
    // Act
    const payments = await auditList(service, world.agentA.key, { action: 'payment.created' });
    const ownResource = await auditList(service, world.agentA.key, { resource: world.agentA.id });
    const byOrganizationKey = await auditList(service, world.agentA.key, { actorId: world.orgKeyId });

    // Assess
    expect(payments.map((entry) => entry.resourceId).sort()).toEqual([...world.agentA.paymentIds].sort());
    expect(signatures(ownResource)).toEqual(signatures(world.recorded.filter((r) => r.resourceId === world.agentA.id)));
    expect(idsOf(byOrganizationKey)).toEqual(
      idsOf(ofWallet(world.agentA.id).filter((entry) => entry.actorId === world.orgKeyId)),
    );
    expect(byOrganizationKey.map((entry) => entry.action).sort()).toEqual(['policy.create', 'wallet.create']);
  });

  it("does not accept an organization key's cursor from an agent key", async () => {
    // Prepare
    const first = await service.call('GET', auditLogsPath({ limit: 2 }), { key: world.orgKey });

    // Act
    const response = await service.call('GET', auditLogsPath({ limit: 2, cursor: first.body.nextCursor }), {
      key: world.agentA.key,
    });

    // Assess
    expect(expectError(response, 400, 'VALIDATION_ERROR').details?.field).toBe('cursor');
  });

  it('answers 403 PERMISSION_DENIED to an agent key without wallets:read', async () => {
    // Prepare
    const created = await service.call('POST', '/v1/agents', {
      key: world.orgKey,
      body: { name: 'Payer only', permissions: ['payments:write'] },
    });
    expect(created.status, created.text).toBe(201);

    // Act
    const response = await service.call('GET', auditLogsPath(), { key: created.body.apiKey });

    // Assess
    expectError(response, 403, 'PERMISSION_DENIED');
  });

  it("shows another organization none of this organization's entries", async () => {
    // Prepare
    const other = await service.createOrganization('Outsider');

    // Act
    const own = await auditList(service, other.key);
    const probes = await Promise.all(
      [{ resource: world.agentA.id }, { actorId: world.orgKeyId }, { resource: world.organizationId }].map((q) =>
        auditList(service, other.key, q),
      ),
    );

    // Assess
    expect(own).toHaveLength(1);
    expect(own[0]).toMatchObject({ action: 'organization.create', organizationId: other.organizationId });
    expect(probes.flat()).toEqual([]);
  });
});
