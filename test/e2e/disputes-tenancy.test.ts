import { beforeAll, describe, expect, it } from 'vitest';
import { ENV } from '../../shared/config/env-names.js';
import { setupE2e } from '../fixtures/e2e-setup.js';
import { eventually } from '../fixtures/eventually.js';
import { activateProduction, createApiKey } from '../fixtures/organizations.js';
import { callOk, callTool, connectMcp, expectToolError, TEST_MCP_TOKEN, toolNames } from '../fixtures/mcp-client.js';
import { expectApiError, expectOk } from '../fixtures/payments-client.js';

describe('disputes: who sees and acts on a dispute', () => {
  const { service, ledger, payerOrg, payeeOrg, outsider } = setupE2e({
    env: { [ENV.mcpAuthToken]: TEST_MCP_TOKEN },
    organizations: { payerOrg: 'Disputing Org', payeeOrg: 'Merchant Org', outsider: 'Outsider Org' },
  });

  const openDispute = (key: string, body: Record<string, unknown>) =>
    service.call('POST', '/v1/disputes', { key, body });
  const respond = (key: string, id: string) =>
    service.call('POST', `/v1/disputes/${id}/respond`, { key, body: { response: 'Delivered.' } });
  const resolve = (key: string, id: string) =>
    service.call('POST', `/v1/disputes/${id}/resolve`, { key, body: { outcome: 'CLOSED' } });
  const listIds = async (key: string) =>
    (expectOk(await service.call('GET', '/v1/disputes', { key })).data as { id: string }[]).map((d) => d.id);

  /** Agents on both sides: the payer agent pays the payee agent 40.00; the payer agent opens a dispute of 10.00. */
  let payerAgent: { walletId: string; key: string };
  let payeeAgent: { walletId: string; key: string };
  let otherPayerAgent: { walletId: string; key: string };
  let otherPayeeAgent: { walletId: string; key: string };
  let paymentId: string;
  let disputeId: string;

  beforeAll(async () => {
    payerAgent = await ledger.createAgent(payerOrg, 'Buyer agent');
    payeeAgent = await ledger.createAgent(payeeOrg, 'Seller agent');
    otherPayerAgent = await ledger.createAgent(payerOrg, 'Other buyer agent');
    otherPayeeAgent = await ledger.createAgent(payeeOrg, 'Other seller agent');
    await ledger.fund(payerOrg.key, payerOrg.mainWalletId, '500.00');
    const budget = await service.call('POST', `/v1/agents/${payerAgent.walletId}/adjust-budget`, {
      key: payerOrg.key,
      body: { amount: '100.00' },
    });
    expectOk(budget);
    const payment = await ledger.paid(payerAgent.key, {
      from: payerAgent.walletId,
      to: payeeAgent.walletId,
      amount: '40.00',
    });
    paymentId = payment.id;
  });

  it('an agent key opens a dispute of a payment from its own wallet, never of one to its wallet', async () => {
    expectApiError(
      await openDispute(payeeAgent.key, { transactionId: paymentId, type: 'FRAUD', amount: '10.00', reason: 'r' }),
      403,
      'PERMISSION_DENIED',
    );
    expectApiError(
      await openDispute(otherPayerAgent.key, { transactionId: paymentId, type: 'FRAUD', amount: '10.00', reason: 'r' }),
      404,
      'TRANSACTION_NOT_FOUND',
    );
    const dispute = expectOk(
      await openDispute(payerAgent.key, { transactionId: paymentId, type: 'FRAUD', amount: '10.00', reason: 'r' }),
      201,
    );
    disputeId = dispute.id;
    expect(dispute).toMatchObject({ payerWalletId: payerAgent.walletId, receivingWalletId: payeeAgent.walletId });
  });

  it('an outsider gets 404 on every route and lists nothing; its key can not resolve', async () => {
    expectApiError(
      await service.call('GET', `/v1/disputes/${disputeId}`, { key: outsider.key }),
      404,
      'DISPUTE_NOT_FOUND',
    );
    expectApiError(await respond(outsider.key, disputeId), 404, 'DISPUTE_NOT_FOUND');
    expectApiError(
      await openDispute(outsider.key, { transactionId: paymentId, type: 'FRAUD', amount: '1.00', reason: 'r' }),
      404,
      'TRANSACTION_NOT_FOUND',
    );
    expect(await listIds(outsider.key)).toEqual([]);
    // Resolve is the operator's: any organization key is refused before the dispute is looked up.
    expectApiError(await resolve(outsider.key, disputeId), 403, 'PERMISSION_DENIED');
    expectApiError(await resolve(outsider.key, 'dsp_unknown'), 403, 'PERMISSION_DENIED');
    // The same answer as for a dispute that does not exist.
    const unknown = await service.call('GET', '/v1/disputes/dsp_unknown', { key: outsider.key });
    const foreign = await service.call('GET', `/v1/disputes/${disputeId}`, { key: outsider.key });
    expect(foreign.body.error.message.replace(disputeId, 'ID')).toBe(
      unknown.body.error.message.replace('dsp_unknown', 'ID'),
    );
  });

  it("each side's agent key sees the dispute; another agent of either organization gets 404", async () => {
    for (const agent of [payerAgent, payeeAgent]) {
      expect(expectOk(await service.call('GET', `/v1/disputes/${disputeId}`, { key: agent.key })).id).toBe(disputeId);
      expect(await listIds(agent.key)).toEqual([disputeId]);
    }
    for (const agent of [otherPayerAgent, otherPayeeAgent]) {
      expectApiError(
        await service.call('GET', `/v1/disputes/${disputeId}`, { key: agent.key }),
        404,
        'DISPUTE_NOT_FOUND',
      );
      expectApiError(await respond(agent.key, disputeId), 404, 'DISPUTE_NOT_FOUND');
      expect(await listIds(agent.key)).toEqual([]);
    }
    for (const org of [payerOrg, payeeOrg]) expect(await listIds(org.key)).toEqual([disputeId]);
  });

  it('the initiator (organization or agent key) gets 403 on respond; the receiving agent answers', async () => {
    expectApiError(await respond(payerOrg.key, disputeId), 403, 'PERMISSION_DENIED');
    expectApiError(await respond(payerAgent.key, disputeId), 403, 'PERMISSION_DENIED');
    expect(expectOk(await respond(payeeAgent.key, disputeId)).status).toBe('RESPONDED');
  });

  it("through MCP an agent has the dispute tools (no resolve) on its own side's disputes only", async () => {
    const payer = await connectMcp(service.baseUrl, payerAgent.key);
    const stranger = await connectMcp(service.baseUrl, otherPayeeAgent.key);
    try {
      const names = await toolNames(payer);
      expect(names).toEqual(
        expect.arrayContaining(['get_dispute', 'list_disputes', 'open_dispute', 'respond_to_dispute']),
      );
      expect(names.filter((name) => name.includes('resolve'))).toEqual([]);
      const listed = await callOk(payer, 'list_disputes', {});
      expect((listed.data as { id: string }[]).map((d) => d.id)).toEqual([disputeId]);
      expect((await callOk(payer, 'get_dispute', { id: disputeId })).status).toBe('RESPONDED');
      expectToolError(
        await callTool(payer, 'respond_to_dispute', { id: disputeId, response: 'r' }),
        'PERMISSION_DENIED',
      );
      const again = expectToolError(
        await callTool(payer, 'open_dispute', { transactionId: paymentId, type: 'FRAUD', amount: '1.00', reason: 'r' }),
        'DISPUTE_EXISTS',
      );
      expect(again.details).toEqual({ disputeId });
      expectToolError(await callTool(stranger, 'get_dispute', { id: disputeId }), 'DISPUTE_NOT_FOUND');
      expect((await callOk(stranger, 'list_disputes', {})).data).toEqual([]);
    } finally {
      await payer.close();
      await stranger.close();
    }
  });

  it('the events and audit entries of each side are its own; agent keys see their wallet', async () => {
    const feed = async (key: string) =>
      (
        expectOk(await service.call('GET', '/v1/events?limit=100', { key })).data as {
          type: string;
          data: { id: string };
        }[]
      )
        .filter((event) => event.type.startsWith('dispute.') && event.data.id === disputeId)
        .map((event) => event.type)
        .sort();
    for (const key of [payerOrg.key, payeeOrg.key, payerAgent.key, payeeAgent.key])
      await eventually(async () => expect(await feed(key)).toEqual(['dispute.created', 'dispute.responded']));
    for (const key of [outsider.key, otherPayerAgent.key, otherPayeeAgent.key]) expect(await feed(key)).toEqual([]);

    const entries = await ledger.auditOf(payeeOrg.organizationId);
    const ours = entries.filter((entry) => entry.resourceId === disputeId);
    expect(ours.map((entry) => [entry.action, entry.actorType, entry.walletId])).toEqual(
      expect.arrayContaining([
        ['dispute.create', 'SYSTEM', payeeAgent.walletId],
        ['dispute.respond', 'API_KEY', payeeAgent.walletId],
      ]),
    );
    // Nothing of the initiator's key or address in the respondent's log.
    expect(JSON.stringify(ours)).not.toContain(payerOrg.keyId);
  });

  describe('the other environment', () => {
    let live: string;

    beforeAll(async () => {
      await activateProduction(service, payerOrg);
      live = (
        await createApiKey(service, payerOrg, {
          permissions: ['payments:read', 'payments:write'],
          environment: 'PRODUCTION',
        })
      ).key;
    });

    it('a live key of a party: 403 ENVIRONMENT_MISMATCH on the sandbox dispute and its payment, and lists nothing', async () => {
      expectApiError(
        await service.call('GET', `/v1/disputes/${disputeId}`, { key: live }),
        403,
        'ENVIRONMENT_MISMATCH',
      );
      expectApiError(
        await openDispute(live, { transactionId: paymentId, type: 'FRAUD', amount: '1.00', reason: 'r' }),
        403,
        'ENVIRONMENT_MISMATCH',
      );
      expect(await listIds(live)).toEqual([]);
    });
  });

  it('the operator closes it: the money returns to the receiving agent wallet', async () => {
    expect(expectOk(await resolve(service.adminKey, disputeId))).toMatchObject({
      status: 'CLOSED',
      creditedWalletId: payeeAgent.walletId,
    });
    expect(await ledger.balanceOf(payeeAgent.key, payeeAgent.walletId)).toBe('40.00000000');
    expect(await ledger.balanceOf(payerAgent.key, payerAgent.walletId)).toBe('60.00000000');
    await ledger.expectLedgerBalanced();
  });
});
