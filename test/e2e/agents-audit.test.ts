import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  agentsApi,
  auditEntriesOf,
  expectStatus,
  outboxEventsOf,
  type AgentOrganization,
  type AgentsApi,
  type CreatedAgent,
} from '../fixtures/agents-client.js';
import { startTestService, type TestService } from '../fixtures/local-service.js';

describe('agents: audit trail and events', () => {
  let service: TestService;
  let api: AgentsApi;
  let org: AgentOrganization;
  let agent: CreatedAgent;
  let rotated: { apiKeyId: string; revokedKeyId: string };
  let adjustment: { transactionId: string };
  beforeAll(async () => {
    service = await startTestService();
    api = agentsApi(service);
    org = await service.createOrganization('Audited Org');
    await api.fundMain(org, '100.00');
    // The whole lifecycle of one agent.
    agent = await api.createAgent(org, { name: 'Audited agent' });
    adjustment = expectStatus(await api.adjust(org, agent.id, 25.5), 200);
    expectStatus(await api.call('POST', `/v1/agents/${agent.id}/pause`, { key: org.key }), 200);
    expectStatus(await api.call('POST', `/v1/agents/${agent.id}/resume`, { key: org.key }), 200);
    rotated = expectStatus(await api.call('POST', `/v1/agents/${agent.id}/rotate-key`, { key: org.key }), 200);
    expectStatus(await api.call('DELETE', `/v1/agents/${agent.id}`, { key: org.key }), 200);
  });
  afterAll(() => service.close());

  const entriesFor = async (action: string) =>
    (await auditEntriesOf(service, org.organizationId)).filter((e) => e.action === action);

  it.each([
    ['wallet.create', 'wallet'],
    ['wallet.budget.adjust', 'wallet'],
    ['wallet.freeze', 'wallet'],
    ['wallet.unfreeze', 'wallet'],
    ['wallet.close', 'wallet'],
  ])('records %s on the agent wallet, by the organization key', async (action, resource) => {
    // Act
    const entries = await entriesFor(action);

    // Assess
    const forAgent = entries.filter((e) => e.resourceId === agent.id);
    expect(forAgent, JSON.stringify(entries)).toHaveLength(1);
    expect(forAgent[0]).toMatchObject({
      resource,
      resourceId: agent.id,
      walletId: agent.id,
      actorType: 'API_KEY',
      actorId: org.keyId,
      environment: 'SANDBOX',
    });
    expect(forAgent[0]!.id).toMatch(/^log_/);
  });

  it('records the agent creation with its key id and AGENT wallet type', async () => {
    // Act
    const [entry] = (await entriesFor('wallet.create')).filter((e) => e.resourceId === agent.id);

    // Assess
    expect(entry!.metadata).toMatchObject({ walletType: 'AGENT', apiKeyId: agent.apiKeyId });
  });

  it('records the budget adjustment with its transaction and amount', async () => {
    // Act
    const [entry] = (await entriesFor('wallet.budget.adjust')).filter((e) => e.resourceId === agent.id);

    // Assess
    expect(entry!.metadata).toMatchObject({ transactionId: adjustment.transactionId, amount: '25.50' });
  });

  it('records the key rotation as api-key.rotate with the agent wallet and the revoked key', async () => {
    // Act
    const entries = await entriesFor('api-key.rotate');

    // Assess
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      resource: 'api-key',
      resourceId: rotated.apiKeyId,
      walletId: agent.id,
      actorId: org.keyId,
    });
    expect(entries[0]!.metadata).toMatchObject({ revokedKeyId: agent.apiKeyId });
  });

  it('records the deletion with the swept amount', async () => {
    // Act
    const [entry] = (await entriesFor('wallet.close')).filter((e) => e.resourceId === agent.id);

    // Assess
    expect(entry!.metadata).toMatchObject({ sweptAmount: '25.50000000', recipientWalletId: org.mainWalletId });
  });

  it('never writes a raw key into the audit trail', async () => {
    // Act
    const text = JSON.stringify(await auditEntriesOf(service, org.organizationId));

    // Assess
    expect(text).not.toContain(agent.apiKey);
  });

  it('emits agent.created, agent.paused, agent.resumed and agent.deleted to the outbox', async () => {
    // Act
    const events = (await outboxEventsOf(service, org.organizationId)).filter((e) =>
      String(e.type).startsWith('agent.'),
    );

    // Assess
    const ofAgent = events.filter((e) => e.data?.id === agent.id);
    expect(ofAgent.map((e) => e.type).sort()).toEqual([
      'agent.created',
      'agent.deleted',
      'agent.paused',
      'agent.resumed',
    ]);
    for (const event of ofAgent) {
      expect(event).toMatchObject({ organizationId: org.organizationId, environment: 'SANDBOX' });
      expect(String(event.id)).toMatch(/^evt_/);
    }
    expect(ofAgent.find((e) => e.type === 'agent.deleted')!.data).toMatchObject({ sweptAmount: '25.50000000' });
    expect(JSON.stringify(events)).not.toContain(agent.apiKey);
  });

  it('writes nothing to the audit trail or outbox for a rejected agent request', async () => {
    // Prepare
    const before = (await auditEntriesOf(service, org.organizationId)).length;
    const eventsBefore = (await outboxEventsOf(service, org.organizationId)).length;

    // Act
    await api.call('POST', '/v1/agents', { key: org.key, body: { name: 'x', permissions: ['admin'] } });
    await api.adjust(org, org.mainWalletId, 5);
    await api.call('DELETE', `/v1/agents/${agent.id}`, { key: org.key });

    // Assess
    expect(await auditEntriesOf(service, org.organizationId)).toHaveLength(before);
    expect(await outboxEventsOf(service, org.organizationId)).toHaveLength(eventsBefore);
  });

  it('keeps the ledger balanced after the lifecycle', async () => {
    // Assess
    expect(await api.balanceOf(org, org.mainWalletId)).toBe('100.00000000');
    await api.expectLedgerBalanced();
  });
});
