import { randomBytes } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENV } from '../../shared/config/env-names.js';
import { setupE2e } from '../fixtures/e2e-setup.js';
import { eventually } from '../fixtures/eventually.js';
import { activateProduction, createApiKey } from '../fixtures/organizations.js';
import { startReceiver } from '../fixtures/webhook-receiver.js';
import { callOk, callTool, connectMcp, expectToolError, TEST_MCP_TOKEN, toolNames } from '../fixtures/mcp-client.js';
import { expectApiError, expectOk } from '../fixtures/payments-client.js';

/**
 * A hostile customer against disputes (issue 23 review): other organizations, agent keys of either
 * side, keys without the permissions, the other environment, mass assignment, hostile strings.
 */
describe('disputes attacked: tenancy, authority, leaks', () => {
  const { service, ledger, payerOrg, payeeOrg, outsider } = setupE2e({
    organizations: { payerOrg: 'Attacked Payer', payeeOrg: 'Attacked Merchant', outsider: 'Hostile Outsider' },
    env: { [ENV.mcpAuthToken]: TEST_MCP_TOKEN, [ENV.webhookEncryptionKey]: randomBytes(32).toString('hex') },
  });

  const openDispute = (key: string, body: Record<string, unknown>, headers?: Record<string, string>) =>
    service.call('POST', '/v1/disputes', { key, body, ...(headers ? { headers } : {}) });
  const respond = (key: string, id: string, body: Record<string, unknown> = { response: 'Delivered.' }) =>
    service.call('POST', `/v1/disputes/${id}/respond`, { key, body });
  const resolve = (key: string, id: string, body: Record<string, unknown> = { outcome: 'CLOSED' }) =>
    service.call('POST', `/v1/disputes/${id}/resolve`, { key, body });
  const getDispute = (key: string, id: string) => service.call('GET', `/v1/disputes/${id}`, { key });
  const listIds = async (key: string, query = '') =>
    (expectOk(await service.call('GET', `/v1/disputes${query}`, { key })).data as { id: string }[]).map((d) => d.id);

  let payerAgent: { walletId: string; key: string };
  let payeeAgent: { walletId: string; key: string };
  let otherPayerAgent: { walletId: string; key: string };

  /** A posted payment payer agent -> payee agent. */
  async function agentPayment(amount = '10.00'): Promise<string> {
    return (await ledger.paid(payerAgent.key, { from: payerAgent.walletId, to: payeeAgent.walletId, amount })).id;
  }

  /** A payment and its OPEN dispute (opened by the payer agent). */
  async function openedDispute(amount = '2.00') {
    const paymentId = await agentPayment(amount);
    const dispute = expectOk(
      await openDispute(payerAgent.key, {
        transactionId: paymentId,
        type: 'SERVICE_ISSUE',
        amount,
        reason: 'Nothing came.',
      }),
      201,
    );
    return { paymentId, dispute: dispute as Record<string, any> };
  }

  beforeAll(async () => {
    payerAgent = await ledger.createAgent(payerOrg, 'Buyer agent');
    payeeAgent = await ledger.createAgent(payeeOrg, 'Seller agent');
    otherPayerAgent = await ledger.createAgent(payerOrg, 'Other buyer agent');
    await ledger.fund(payerOrg.key, payerOrg.mainWalletId, '1000.00');
    for (const agent of [payerAgent, otherPayerAgent])
      expectOk(
        await service.call('POST', `/v1/agents/${agent.walletId}/adjust-budget`, {
          key: payerOrg.key,
          body: { amount: '200.00' },
        }),
      );
  });

  describe('hostile evidence URLs (the respondent writes, the initiator reads)', () => {
    it('refuses an evidenceUrl with C0 control characters or DEL (NUL, ESC, CR/LF, tab, DEL), as every other text field does', async () => {
      const { dispute } = await openedDispute();
      for (const evidenceUrl of [
        'https://merchant.example.com/log\u0000',
        'https://merchant.example.com/\u001b[2J\u001b[31mFORGED',
        'https://merchant.example.com/a\r\nX-Injected: 1',
        'https://merchant.exa\tmple.com/',
        'https://merchant.example.com/\u007f',
      ]) {
        const response = await respond(payeeOrg.key, dispute.id, { response: 'See log.', evidenceUrl });
        expect(response.status, `${JSON.stringify(evidenceUrl)} -> ${response.text}`).toBe(400);
        expect(response.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'evidenceUrl' } });
      }
      // Nothing was stored: the dispute is still OPEN and answerable.
      expect(expectOk(await getDispute(payerOrg.key, dispute.id))).toMatchObject({ status: 'OPEN', evidenceUrl: null });
    });

    it('refuses an evidenceUrl with a lone UTF-16 surrogate with 400 (not storable text), never a 500', async () => {
      const { dispute } = await openedDispute();
      const response = await service.call('POST', `/v1/disputes/${dispute.id}/respond`, {
        key: payeeOrg.key,
        rawBody: '{"response":"See log.","evidenceUrl":"https://merchant.example.com/\\ud800"}',
        headers: { 'content-type': 'application/json' },
      });
      expect(response.status, response.text).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'evidenceUrl' } });
    });

    it('refuses an evidenceUrl carrying credentials (user:password@): they would reach the other organization, its events and its webhooks', async () => {
      const { dispute } = await openedDispute();
      for (const evidenceUrl of [
        'https://admin:s3cret@evidence.merchant.example.com/log',
        'https://token@evidence.merchant.example.com/log',
      ]) {
        const response = await respond(payeeOrg.key, dispute.id, { response: 'See log.', evidenceUrl });
        expect(response.status, `${evidenceUrl} -> ${response.text}`).toBe(400);
        expect(response.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'evidenceUrl' } });
      }
    });

    it('refuses javascript:, data:, http: and scheme tricks; keeps a plain https URL as given', async () => {
      const { dispute } = await openedDispute();
      for (const evidenceUrl of [
        'javascript:alert(1)//https://',
        'data:text/html,<script>alert(1)</script>',
        'http://merchant.example.com/log',
        ' https://merchant.example.com/log',
        'https:merchant.example.com',
        'https://',
        '//merchant.example.com/log',
      ])
        expect(
          expectApiError(
            await respond(payeeOrg.key, dispute.id, { response: 'r', evidenceUrl }),
            400,
            'VALIDATION_ERROR',
          ).details,
          evidenceUrl,
        ).toMatchObject({ field: 'evidenceUrl' });
      const answered = expectOk(
        await respond(payeeOrg.key, dispute.id, {
          response: 'r',
          evidenceUrl: 'https://merchant.example.com/log?id=1',
        }),
      );
      expect(answered.evidenceUrl).toBe('https://merchant.example.com/log?id=1');
    });
  });

  describe('mass assignment and hostile strings', () => {
    it('refuses every unknown field on open (status, organizationId, respondBy, payerWalletId, receivingWalletId, resolvedBy...), before any money moves', async () => {
      const paymentId = await agentPayment('3.00');
      const body = { transactionId: paymentId, type: 'FRAUD', amount: '3.00', reason: 'r' };
      for (const extra of [
        { status: 'RESOLVED_AGENT' },
        { organizationId: outsider.organizationId },
        { initiatorOrgId: outsider.organizationId },
        { respondBy: '2020-01-01T00:00:00.000Z' },
        { payerWalletId: otherPayerAgent.walletId },
        { receivingWalletId: payerOrg.mainWalletId },
        { creditedWalletId: otherPayerAgent.walletId },
        { resolvedBy: 'OPERATOR' },
        { requestedByKeyId: 'key_x' },
        { environment: 'PRODUCTION' },
        { id: 'dsp_chosenByTheCaller' },
        { __proto__: { status: 'CLOSED' }, constructor: { prototype: { status: 'CLOSED' } } },
      ])
        expectApiError(
          await openDispute(payerAgent.key, { ...body, ...JSON.parse(JSON.stringify(extra)) }),
          400,
          'VALIDATION_ERROR',
        );
      expect(await ledger.balanceOf(payeeAgent.key, payeeAgent.walletId)).toBeDefined();
      expect(expectOk(await ledger.getPayment(payerAgent.key, paymentId)).disputeId).toBeNull();
    });

    it('refuses unknown fields on respond (status, evidence of another shape) and resolve (creditedWalletId, status)', async () => {
      const { dispute } = await openedDispute();
      for (const extra of [
        { status: 'RESOLVED_MERCHANT' },
        { respondBy: '2099-01-01T00:00:00.000Z' },
        { respondedAt: null },
      ])
        expectApiError(await respond(payeeOrg.key, dispute.id, { response: 'r', ...extra }), 400, 'VALIDATION_ERROR');
      for (const extra of [{ creditedWalletId: outsider.mainWalletId }, { status: 'OPEN' }, { resolvedBy: 'DEADLINE' }])
        expectApiError(
          await resolve(service.adminKey, dispute.id, { outcome: 'RESOLVED_AGENT', ...extra }),
          400,
          'VALIDATION_ERROR',
        );
      for (const note of ['x'.repeat(1001), 'a\u0000b', '\u001b[31m'])
        expect(
          expectApiError(
            await resolve(service.adminKey, dispute.id, { outcome: 'CLOSED', note }),
            400,
            'VALIDATION_ERROR',
          ).details,
        ).toMatchObject({ field: 'note' });
      expect(expectOk(await getDispute(payeeOrg.key, dispute.id)).status).toBe('OPEN');
    });

    it('refuses oversize ids (transactionId, respondentOrgId) and non-object bodies', async () => {
      const paymentId = await agentPayment('1.00');
      const body = { transactionId: paymentId, type: 'FRAUD', amount: '1.00', reason: 'r' };
      expect(
        expectApiError(
          await openDispute(payerAgent.key, { ...body, transactionId: `txn_${'a'.repeat(200)}` }),
          400,
          'VALIDATION_ERROR',
        ).details,
      ).toMatchObject({ field: 'transactionId' });
      expect(
        expectApiError(
          await openDispute(payerAgent.key, { ...body, respondentOrgId: `org_${'a'.repeat(200)}` }),
          400,
          'VALIDATION_ERROR',
        ).details,
      ).toMatchObject({ field: 'respondentOrgId' });
      const { dispute } = await openedDispute();
      for (const rawBody of ['null', '[]', '"respond"', '{"response":"a","response":{"status":"CLOSED"}}'])
        expectApiError(
          await service.call('POST', `/v1/disputes/${dispute.id}/respond`, {
            key: payeeOrg.key,
            rawBody,
            headers: { 'content-type': 'application/json' },
          }),
          400,
          'VALIDATION_ERROR',
        );
      expect(expectOk(await getDispute(payeeOrg.key, dispute.id)).status).toBe('OPEN');
      expect(expectOk(await ledger.getPayment(payerAgent.key, paymentId)).disputeId).toBeNull();
    });

    it('refuses control characters and oversize text in reason and response, and names the field', async () => {
      const paymentId = await agentPayment('1.00');
      const body = { transactionId: paymentId, type: 'FRAUD', amount: '1.00' };
      for (const reason of ['a\u0000b', '\u001b[31m', 'x'.repeat(1001), ''])
        expect(
          expectApiError(await openDispute(payerAgent.key, { ...body, reason }), 400, 'VALIDATION_ERROR').details,
        ).toMatchObject({ field: 'reason' });
      const { dispute } = await openedDispute();
      for (const response of ['a\u0000b', '\u0007', 'x'.repeat(2001), ''])
        expect(
          expectApiError(await respond(payeeOrg.key, dispute.id, { response }), 400, 'VALIDATION_ERROR').details,
        ).toMatchObject({ field: 'response' });
    });

    it('respondentOrgId tricks: another organization, the caller itself, a case variant, a non-id: 400 on respondentOrgId, nothing opened', async () => {
      const paymentId = await agentPayment('1.00');
      const body = { transactionId: paymentId, type: 'FRAUD', amount: '1.00', reason: 'r' };
      const id = payeeOrg.organizationId;
      const swapped =
        id.slice(0, 4) +
        [...id.slice(4)].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
      for (const respondentOrgId of [
        outsider.organizationId,
        payerOrg.organizationId,
        swapped,
        id.toUpperCase(),
        ` ${id}`,
        `${id}#x`,
        'org_',
      ])
        expect(
          expectApiError(await openDispute(payerAgent.key, { ...body, respondentOrgId }), 400, 'VALIDATION_ERROR')
            .details,
          respondentOrgId,
        ).toMatchObject({ field: 'respondentOrgId' });
      expect(expectOk(await ledger.getPayment(payerAgent.key, paymentId)).disputeId).toBeNull();
      // The right one opens.
      expectOk(await openDispute(payerAgent.key, { ...body, respondentOrgId: id }), 201);
    });

    it('list: unknown query fields (walletId of another wallet, organizationId, respondentOrgId) are refused, not used to widen the list', async () => {
      const { dispute } = await openedDispute();
      for (const query of [
        `?walletId=${payerAgent.walletId}`,
        `?organizationId=${payerOrg.organizationId}`,
        `?respondentOrgId=${payeeOrg.organizationId}`,
        '?offset=-1',
        '?offset=1.5',
        '?limit=101',
        '?status=open',
      ])
        expectApiError(
          await service.call('GET', `/v1/disputes${query}`, { key: otherPayerAgent.key }),
          400,
          'VALIDATION_ERROR',
        );
      expect(await listIds(otherPayerAgent.key)).not.toContain(dispute.id);
      expect(await listIds(outsider.key, '?status=OPEN&limit=100')).toEqual([]);
    });
  });

  describe('authority', () => {
    it('keys without payments:write can not open or respond; without payments:read can not get or list (403 before any lookup)', async () => {
      const { paymentId, dispute } = await openedDispute();
      const readOnlyPayer = await ledger.createKey(payerOrg, ['payments:read'], 'Read-only payer');
      const readOnlyPayee = await ledger.createKey(payeeOrg, ['payments:read'], 'Read-only payee');
      const writeOnlyPayee = await ledger.createKey(payeeOrg, ['payments:write'], 'Write-only payee');
      const walletsOnly = await ledger.createKey(payeeOrg, ['wallets:read'], 'Wallets only');
      const fresh = await agentPayment('1.00');
      expectApiError(
        await openDispute(readOnlyPayer.key, { transactionId: fresh, type: 'FRAUD', amount: '1.00', reason: 'r' }),
        403,
        'PERMISSION_DENIED',
      );
      expectApiError(await respond(readOnlyPayee.key, dispute.id), 403, 'PERMISSION_DENIED');
      expectApiError(await respond(readOnlyPayee.key, 'dsp_doesNotExist'), 403, 'PERMISSION_DENIED');
      for (const key of [writeOnlyPayee.key, walletsOnly.key]) {
        expectApiError(await getDispute(key, dispute.id), 403, 'PERMISSION_DENIED');
        expectApiError(await service.call('GET', '/v1/disputes', { key }), 403, 'PERMISSION_DENIED');
      }
      expect(expectOk(await ledger.getPayment(payerAgent.key, paymentId)).disputeId).toBe(dispute.id);
      expect(expectOk(await ledger.getPayment(payerAgent.key, fresh)).disputeId).toBeNull();
    });

    it('nobody but the operator resolves: organization keys of both parties, agent keys, a key asking for service:admin', async () => {
      const { dispute } = await openedDispute();
      for (const key of [payerOrg.key, payeeOrg.key, payerAgent.key, payeeAgent.key, outsider.key])
        for (const outcome of ['RESOLVED_AGENT', 'RESOLVED_MERCHANT', 'CLOSED'])
          expectApiError(await resolve(key, dispute.id, { outcome }), 403, 'PERMISSION_DENIED');
      const minted = await service.call('POST', '/v1/api-keys', {
        key: payerOrg.key,
        body: { name: 'Operator wannabe', permissions: ['service:admin'] },
      });
      expect(minted.status).toBe(400);
      // The operator key reads no organization's disputes through the customer routes.
      expectApiError(await getDispute(service.adminKey, dispute.id), 403, 'PERMISSION_DENIED');
      expectApiError(await respond(service.adminKey, dispute.id), 403, 'PERMISSION_DENIED');
      expect(expectOk(await getDispute(payeeOrg.key, dispute.id)).status).toBe('OPEN');
    });

    it('the respondent can not open a dispute of the payment it received, nor of its own reversal back; the initiator can not respond after the respondent', async () => {
      const { paymentId, dispute } = await openedDispute();
      const body = { transactionId: paymentId, type: 'FRAUD', amount: '1.00', reason: 'r' };
      expectApiError(await openDispute(payeeOrg.key, body), 403, 'PERMISSION_DENIED');
      expectApiError(await openDispute(payeeAgent.key, body), 403, 'PERMISSION_DENIED');
      expectOk(await respond(payeeAgent.key, dispute.id));
      expectApiError(await respond(payerOrg.key, dispute.id), 403, 'PERMISSION_DENIED');
      expectApiError(await respond(payerAgent.key, dispute.id), 403, 'PERMISSION_DENIED');
      expectApiError(await respond(otherPayerAgent.key, dispute.id), 404, 'DISPUTE_NOT_FOUND');
    });

    it("an agent key can not open a dispute of another wallet's payment of its own organization, even naming it in every way", async () => {
      const paymentId = await agentPayment('1.00');
      const body = { transactionId: paymentId, type: 'FRAUD', amount: '1.00', reason: 'r' };
      expect(
        expectApiError(await openDispute(otherPayerAgent.key, body), 404, 'TRANSACTION_NOT_FOUND').details,
      ).toEqual({ field: 'transactionId' });
      // The same answer as for an unknown payment (nothing tells it exists).
      const unknown = await openDispute(otherPayerAgent.key, { ...body, transactionId: 'txn_doesNotExist1' });
      const foreign = await openDispute(otherPayerAgent.key, body);
      expect(foreign.body.error.message.replace(paymentId, 'ID')).toBe(
        unknown.body.error.message.replace('txn_doesNotExist1', 'ID'),
      );
      expect(foreign.body.error.details).toEqual(unknown.body.error.details);
    });
  });

  describe('idempotency slots', () => {
    it('an Idempotency-Key replays only to the scope that used it: another agent of the organization, the organization key and an outsider never get the first dispute', async () => {
      const paymentId = await agentPayment('4.00');
      const body = { transactionId: paymentId, type: 'FRAUD', amount: '4.00', reason: 'r' };
      const headers = { 'Idempotency-Key': 'attack-replay-1' };
      const first = expectOk(await openDispute(payerAgent.key, body, headers), 201);

      const other = await openDispute(otherPayerAgent.key, body, headers);
      expect(other.status).not.toBe(201);
      expect(other.text).not.toContain(first.id);
      expectApiError(other, 409, 'IDEMPOTENCY_KEY_REUSE');

      const foreign = await openDispute(outsider.key, body, headers);
      expect(foreign.text).not.toContain(first.id);
      expectApiError(foreign, 404, 'TRANSACTION_NOT_FOUND');

      const payee = await openDispute(payeeOrg.key, body, headers);
      expect(payee.text).not.toContain(first.id);
      expectApiError(payee, 403, 'PERMISSION_DENIED');

      const replay = await openDispute(payerAgent.key, body, headers);
      expect(expectOk(replay, 201).id).toBe(first.id);
    });
  });

  describe('leaks to the other party', () => {
    it("the respondent's view, events, audit entries and statement carry nothing of the initiator's key id or its idempotency key", async () => {
      const paymentId = await agentPayment('6.00');
      const payerKeyId = expectOk(await service.call('GET', '/v1/api-keys', { key: payerOrg.key })).data.find(
        (k: { walletId?: string | null }) => k.walletId === payerAgent.walletId,
      )?.id as string | undefined;
      const created = expectOk(
        await openDispute(
          payerAgent.key,
          { transactionId: paymentId, type: 'FRAUD', amount: '6.00', reason: 'r' },
          { 'Idempotency-Key': 'initiator-private-idem-key' },
        ),
        201,
      );
      expect(payerKeyId).toBeDefined();
      const secrets = ['initiator-private-idem-key', payerKeyId!];
      const seenByRespondent: string[] = [];
      seenByRespondent.push(JSON.stringify(expectOk(await getDispute(payeeOrg.key, created.id))));
      seenByRespondent.push(
        JSON.stringify(expectOk(await service.call('GET', '/v1/disputes', { key: payeeAgent.key }))),
      );
      seenByRespondent.push(JSON.stringify(expectOk(await ledger.getPayment(payeeOrg.key, paymentId))));
      await eventually(async () => {
        const events = expectOk(await service.call('GET', '/v1/events?limit=100', { key: payeeOrg.key })).data as {
          type: string;
          data: { id?: string };
        }[];
        expect(events.some((e) => e.type === 'dispute.created' && e.data.id === created.id)).toBe(true);
        seenByRespondent.push(JSON.stringify(events));
      });
      seenByRespondent.push(JSON.stringify(await ledger.auditOf(payeeOrg.organizationId)));
      seenByRespondent.push(
        JSON.stringify(
          expectOk(
            await service.call('GET', `/v1/wallets/${payeeAgent.walletId}/transactions`, { key: payeeAgent.key }),
          ),
        ),
      );
      for (const seen of seenByRespondent) for (const secret of secrets) expect(seen).not.toContain(secret);
    });

    it("the initiator does not reach the respondent's DISPUTE posting, statement or wallet through the ids the dispute names", async () => {
      const { dispute } = await openedDispute();
      expectApiError(await ledger.getPayment(payerOrg.key, dispute.holdTransactionId), 404, 'TRANSACTION_NOT_FOUND');
      expectApiError(
        await service.call('GET', `/v1/wallets/${dispute.receivingWalletId}/transactions`, { key: payerOrg.key }),
        404,
        'WALLET_NOT_FOUND',
      );
      expectApiError(
        await service.call('GET', `/v1/wallets/${dispute.receivingWalletId}/balance`, { key: payerOrg.key }),
        404,
        'WALLET_NOT_FOUND',
      );
      // The respondent does not read the initiator's paying wallet either.
      expectApiError(
        await service.call('GET', `/v1/wallets/${dispute.payerWalletId}/balance`, { key: payeeOrg.key }),
        404,
        'WALLET_NOT_FOUND',
      );
    });
  });

  describe('over MCP (the agent side)', () => {
    let payee: Client;
    let otherPayer: Client;
    let foreign: Client;

    beforeAll(async () => {
      payee = await connectMcp(service.baseUrl, payeeAgent.key);
      otherPayer = await connectMcp(service.baseUrl, otherPayerAgent.key);
      foreign = await connectMcp(service.baseUrl, outsider.key);
    });
    afterAll(async () => {
      await Promise.all([payee.close(), otherPayer.close(), foreign.close()]);
    });

    it('no tool resolves; another agent and an outsider get DISPUTE_NOT_FOUND and an empty list; the receiving agent can not open', async () => {
      const { paymentId, dispute } = await openedDispute();
      for (const client of [payee, otherPayer, foreign])
        expect((await toolNames(client)).filter((name) => name.includes('resolve'))).toEqual([]);
      for (const client of [otherPayer, foreign]) {
        expectToolError(await callTool(client, 'get_dispute', { id: dispute.id }), 'DISPUTE_NOT_FOUND');
        expectToolError(
          await callTool(client, 'respond_to_dispute', { id: dispute.id, response: 'Mine now.' }),
          'DISPUTE_NOT_FOUND',
        );
        const listed = await callOk<{ data: { id: string }[] }>(client, 'list_disputes', {});
        expect(listed.data.map((d) => d.id)).not.toContain(dispute.id);
      }
      expectToolError(
        await callTool(payee, 'open_dispute', { transactionId: paymentId, type: 'FRAUD', amount: '1.00', reason: 'r' }),
        'PERMISSION_DENIED',
      );
      const widened = await callTool(otherPayer, 'list_disputes', { walletId: payerAgent.walletId });
      if (!widened.isError) expect(JSON.stringify(widened.structuredContent)).not.toContain(dispute.id);
      expect((await callOk(payee, 'get_dispute', { id: dispute.id })).id).toBe(dispute.id);
      expect((await callOk(payee, 'respond_to_dispute', { id: dispute.id, response: 'Delivered.' })).status).toBe(
        'RESPONDED',
      );
    });
  });

  describe('the movements the dispute names', () => {
    it('neither party finds the DISPUTE or DISPUTE_RESOLUTION records through /v1/payments, nor reverses them', async () => {
      const { dispute } = await openedDispute();
      for (const key of [payeeOrg.key, payeeAgent.key, payerOrg.key])
        expectApiError(await ledger.getPayment(key, dispute.holdTransactionId), 404, 'TRANSACTION_NOT_FOUND');
      expectApiError(
        await service.call('POST', `/v1/payments/${dispute.holdTransactionId}/reverse`, {
          key: payeeOrg.key,
          body: {},
        }),
        404,
        'TRANSACTION_NOT_FOUND',
      );
      const resolved = expectOk(await resolve(service.adminKey, dispute.id, { outcome: 'RESOLVED_AGENT' }));
      for (const key of [payerOrg.key, payerAgent.key, payeeOrg.key])
        expectApiError(await ledger.getPayment(key, resolved.resolutionTransactionId), 404, 'TRANSACTION_NOT_FOUND');
      expectApiError(
        await service.call('POST', `/v1/payments/${resolved.resolutionTransactionId}/reverse`, {
          key: payerOrg.key,
          body: {},
        }),
        404,
        'TRANSACTION_NOT_FOUND',
      );
      // A resolved dispute is still the parties' only; another agent of the initiator does not see it.
      expectApiError(await getDispute(otherPayerAgent.key, dispute.id), 404, 'DISPUTE_NOT_FOUND');
      expectApiError(await respond(payeeAgent.key, dispute.id), 409, 'INVALID_STATE');
    });
  });

  describe('webhooks', () => {
    it("each party's webhook gets its own copy of the dispute events; an outsider's catch-all webhook gets none", async () => {
      const receiver = await startReceiver();
      try {
        const register = async (key: string, path: string) =>
          expectOk(
            await service.call('POST', '/v1/webhooks', { key, body: { url: receiver.url(path), events: ['*'] } }),
            201,
          );
        await register(payerOrg.key, '/payer');
        await register(payeeOrg.key, '/payee');
        await register(outsider.key, '/outsider');
        const { dispute } = await openedDispute();
        expectOk(
          await respond(payeeAgent.key, dispute.id, { response: 'Delivered.', evidenceUrl: 'https://e.example/1' }),
        );
        const disputeHooks = (path: string) =>
          receiver
            .at(path)
            .map((hook) => JSON.parse(hook.body) as { type: string; data: { id?: string } })
            .filter((event) => event.type.startsWith('dispute.'));
        await eventually(async () => {
          for (const path of ['/payer', '/payee'])
            expect(
              disputeHooks(path)
                .filter((e) => e.data.id === dispute.id)
                .map((e) => e.type)
                .sort(),
            ).toEqual(['dispute.created', 'dispute.responded']);
        }, 15_000);
        expect(disputeHooks('/outsider')).toEqual([]);
        expect(
          receiver
            .at('/outsider')
            .map((hook) => hook.body)
            .join('\n'),
        ).not.toContain(dispute.id);
      } finally {
        await receiver.close();
      }
    });
  });

  describe('the other environment', () => {
    let payerLive: string;
    let payeeLive: string;

    beforeAll(async () => {
      await activateProduction(service, payerOrg);
      await activateProduction(service, payeeOrg);
      const keyOf = async (org: typeof payerOrg) =>
        (
          await createApiKey(service, org, {
            permissions: ['payments:read', 'payments:write'],
            environment: 'PRODUCTION',
          })
        ).key;
      payerLive = await keyOf(payerOrg);
      payeeLive = await keyOf(payeeOrg);
    });

    it("the respondent's live key: 403 ENVIRONMENT_MISMATCH on get and respond of the sandbox dispute, nothing listed, the dispute stays OPEN", async () => {
      const { dispute } = await openedDispute();
      expectApiError(await getDispute(payeeLive, dispute.id), 403, 'ENVIRONMENT_MISMATCH');
      expectApiError(await respond(payeeLive, dispute.id), 403, 'ENVIRONMENT_MISMATCH');
      expectApiError(await respond(payerLive, dispute.id), 403, 'ENVIRONMENT_MISMATCH');
      expect(await listIds(payeeLive)).toEqual([]);
      expect(await listIds(payerLive, '?status=OPEN')).toEqual([]);
      expect(expectOk(await getDispute(payeeOrg.key, dispute.id)).status).toBe('OPEN');
    });

    it("an outsider's live key gets 404, as for an unknown dispute", async () => {
      const { dispute } = await openedDispute();
      await activateProduction(service, outsider);
      const live = (
        await createApiKey(service, outsider, {
          permissions: ['payments:read', 'payments:write'],
          environment: 'PRODUCTION',
        })
      ).key;
      expectApiError(await getDispute(live, dispute.id), 404, 'DISPUTE_NOT_FOUND');
      expectApiError(await respond(live, dispute.id), 404, 'DISPUTE_NOT_FOUND');
    });
  });
});
