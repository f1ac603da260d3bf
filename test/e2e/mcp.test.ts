import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENV } from '../../shared/config/env-names.js';
import { AUDIT } from '../../shared/domain/audit/actions.js';
import { startTestService, type TestService } from '../fixtures/local-service.js';
import { callOk, callTool, connectMcp, expectToolError, TEST_MCP_TOKEN, toolNames } from '../fixtures/mcp-client.js';

/** Tools only an organization-level key may use (decisions.md section 1: agents never manage agents). */
const AGENT_MANAGEMENT = [
  'create_agent',
  'create_agent_from_template',
  'adjust_budget',
  'pause_agent',
  'resume_agent',
  'rotate_agent_key',
  'delete_agent',
];

describe('MCP over Streamable HTTP (POST /mcp of the local server)', () => {
  let service: TestService;
  let org: Awaited<ReturnType<TestService['createOrganization']>>;
  let orgClient: Client;
  /** The research template: at most 50.00 per payment, no approval. */
  let agent: { id: string; apiKey: string };
  let agentClient: Client;
  const clients: Client[] = [];
  const connect = async (key: string) => {
    const client = await connectMcp(service.baseUrl, key);
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    service = await startTestService({ [ENV.mcpAuthToken]: TEST_MCP_TOKEN });
    org = await service.createOrganization('MCP Org');
    orgClient = await connect(org.key);
    await callOk(orgClient, 'fund_wallet', { id: org.mainWalletId, amount: '1000.00' });
    agent = await callOk(orgClient, 'create_agent', { name: 'Researcher', templateId: 'research' });
    agentClient = await connect(agent.apiKey);
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await service.close();
  });

  describe('tools/list', () => {
    it('shows an organization key every tool of the catalog, with schemas and hints', async () => {
      // Act
      const { tools } = await orgClient.listTools();

      // Assess
      const names = tools.map((t) => t.name);
      expect(names).toEqual(
        expect.arrayContaining([
          'allowance_create_payment',
          'allowance_get_balance',
          'allowance_get_approval',
          'allowance_list_transactions',
          'allowance_query_audit_logs',
          ...AGENT_MANAGEMENT.map((n) => `allowance_${n}`),
        ]),
      );
      const pay = tools.find((t) => t.name === 'allowance_create_payment')!;
      expect(pay.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: false });
      expect(pay.inputSchema.required).toEqual(expect.arrayContaining(['from', 'to', 'amount']));
      expect(
        (pay.inputSchema.properties as Record<string, { description: string }>).idempotencyKey!.description,
      ).toMatch(/pay twice/);
      expect(pay.outputSchema).toBeDefined();
      expect(tools.find((t) => t.name === 'allowance_get_balance')!.annotations).toMatchObject({ readOnlyHint: true });
    });

    it('shows an agent key only the tools it may use: no agent management', async () => {
      // Act
      const names = await toolNames(agentClient);

      // Assess
      expect(names).toEqual(
        expect.arrayContaining([
          'create_payment',
          'get_balance',
          'get_approval',
          'list_transactions',
          'query_audit_logs',
        ]),
      );
      for (const name of AGENT_MANAGEMENT) expect(names).not.toContain(name);
      expect(names.length).toBeLessThan((await toolNames(orgClient)).length);
    });
  });

  describe('an agent at work', () => {
    it('creates the agent from a template through create_agent with templateId', () => {
      expect(agent.id).toMatch(/^wal_/);
      expect(agent.apiKey).toMatch(/^svc_test_/);
      expect(agent).toMatchObject({ policyId: expect.stringMatching(/^pol_/) });
    });

    it('adjusts the budget with the organization key, then the agent pays (POSTED) and sees its balance', async () => {
      // Act
      const adjusted = await callOk(orgClient, 'adjust_budget', {
        id: agent.id,
        amount: '200.00',
        idempotencyKey: 'mcp-budget-1',
      });
      const payment = await callOk(agentClient, 'create_payment', {
        from: agent.id,
        to: org.mainWalletId,
        amount: '12.50',
        description: 'dataset',
        idempotencyKey: 'mcp-pay-1',
      });
      const balance = await callOk(agentClient, 'get_balance', { id: agent.id });

      // Assess
      expect(adjusted).toMatchObject({ id: agent.id, newBalance: '200.00000000' });
      expect(payment).toMatchObject({
        object: 'payment',
        status: 'POSTED',
        amount: '12.50',
        from: agent.id,
        to: org.mainWalletId,
      });
      expect(balance.balance).toBe('187.50000000');
    });

    it('answers a retry with the same idempotency key with the first payment, and moves the money once', async () => {
      // Act
      const again = await callOk(agentClient, 'create_payment', {
        from: agent.id,
        to: org.mainWalletId,
        amount: '12.50',
        description: 'dataset',
        idempotencyKey: 'mcp-pay-1',
      });
      const balance = await callOk(agentClient, 'get_balance', { id: agent.id });

      // Assess
      expect(again.status).toBe('POSTED');
      expect(balance.balance).toBe('187.50000000');
    });

    it('refuses a payment over the policy limit with isError, POLICY_DENIED, not retryable and what to do next', async () => {
      // Act
      const result = await callTool(agentClient, 'create_payment', {
        from: agent.id,
        to: org.mainWalletId,
        amount: '75.00',
        idempotencyKey: 'mcp-pay-over',
      });

      // Assess
      const error = expectToolError(result, 'POLICY_DENIED');
      expect(error).toMatchObject({ status: 403, retryable: false });
      expect(error.nextStep).toMatch(/policy/i);
      expect((await callOk(agentClient, 'get_balance', { id: agent.id })).balance).toBe('187.50000000');
    });

    it('answers a payment under an approval policy as queued (not an error), with the approval id and the tool to check it', async () => {
      // Prepare
      const buyer = await callOk(orgClient, 'create_agent', { name: 'Buyer', templateId: 'procurement' });
      await callOk(orgClient, 'adjust_budget', { id: buyer.id, amount: '100.00', idempotencyKey: 'mcp-budget-buyer' });
      const buyerClient = await connect(buyer.apiKey);

      // Act
      const result = await callTool(buyerClient, 'create_payment', {
        from: buyer.id,
        to: org.mainWalletId,
        amount: '40.00',
        idempotencyKey: 'mcp-pay-queued',
      });

      // Assess
      expect(result.isError ?? false).toBe(false);
      const queued = result.structuredContent as Record<string, string>;
      expect(queued).toMatchObject({
        outcome: 'QUEUED_FOR_APPROVAL',
        code: 'APPROVAL_REQUIRED',
        approvalId: expect.stringMatching(/^apr_/),
        transactionId: expect.stringMatching(/^txn_/),
        checkWith: 'allowance_get_approval',
      });
      expect((result.content[0] as { text: string }).text).toContain(queued.approvalId);
      const approval = await callOk(buyerClient, 'get_approval', { id: queued.approvalId });
      expect(approval).toMatchObject({ id: queued.approvalId, status: 'PENDING' });
    });

    it('lets the organization query the audit log through query_audit_logs', async () => {
      // Act
      const actions = async () =>
        (
          (await callOk(orgClient, 'query_audit_logs', { action: AUDIT.wallet.adjustBudget, limit: 50 })).data as {
            action: string;
          }[]
        ).map((e) => e.action);

      // Assess
      await expect.poll(actions, { timeout: 5_000 }).toContain(AUDIT.wallet.adjustBudget);
    });
  });

  describe('refusals', () => {
    it('answers a tool the key may not use (an agent creating agents) with isError PERMISSION_DENIED', async () => {
      // Act
      const result = await callTool(agentClient, 'create_agent', { name: 'Rogue' });

      // Assess
      expect(expectToolError(result, 'PERMISSION_DENIED').retryable).toBe(false);
    });

    it("answers another organization's wallet id with WALLET_NOT_FOUND", async () => {
      // Prepare
      const other = await service.createOrganization('MCP Other Org');
      const otherClient = await connect(other.key);

      // Act
      const balance = await callTool(otherClient, 'get_balance', { id: org.mainWalletId });
      const payment = await callTool(otherClient, 'create_payment', {
        from: org.mainWalletId,
        to: other.mainWalletId,
        amount: '1.00',
      });

      // Assess
      expect(expectToolError(balance, 'WALLET_NOT_FOUND').status).toBe(404);
      expectToolError(payment, 'WALLET_NOT_FOUND');
    });

    it('answers bad arguments with VALIDATION_ERROR naming the field, and an unknown field likewise', async () => {
      // Act
      const missing = await callTool(agentClient, 'create_payment', { from: agent.id, amount: '1.00' });
      const unknown = await callTool(agentClient, 'get_balance', { id: agent.id, walletType: 'ORG' });

      // Assess
      expect(expectToolError(missing, 'VALIDATION_ERROR').details).toMatchObject({ field: 'to' });
      expect(expectToolError(unknown, 'VALIDATION_ERROR').details).toMatchObject({ field: 'walletType' });
    });

    it('accepts numbers for query fields (limit) as a query string would carry them', async () => {
      // Act
      const page = await callOk(orgClient, 'list_wallets', { limit: 1 });

      // Assess
      expect(page.data).toHaveLength(1);
      expect(page.hasMore).toBe(true);
    });

    it('answers 401 to a wrong MCP token, and to a missing or invalid API key', async () => {
      // Prepare
      const post = (headers: Record<string, string>) =>
        fetch(`${service.baseUrl}/mcp`, {
          method: 'POST',
          headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', ...headers },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
        });

      // Act
      const wrongToken = await post({ authorization: 'Bearer not-the-token-0123456789', 'x-api-key': org.key });
      const noToken = await post({ 'x-api-key': org.key });
      const noKey = await post({ authorization: `Bearer ${TEST_MCP_TOKEN}` });
      const badKey = await post({ authorization: `Bearer ${TEST_MCP_TOKEN}`, 'x-api-key': 'svc_test_notavalidkey' });

      // Assess
      for (const response of [wrongToken, noToken, noKey, badKey]) {
        expect(response.status).toBe(401);
        expect(((await response.json()) as { error: { code: string } }).error.code).toBe('UNAUTHORIZED');
        expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
        expect(response.headers.get('strict-transport-security')).toBeTruthy();
      }
    });

    it('refuses the SDK client itself when its token is wrong', async () => {
      await expect(connectMcp(service.baseUrl, org.key, 'not-the-token-0123456789')).rejects.toMatchObject({
        code: 401,
      });
    });

    it('answers GET /mcp with 405: the endpoint is stateless, there is no event stream', async () => {
      // Act
      const response = await fetch(`${service.baseUrl}/mcp`, {
        headers: { authorization: `Bearer ${TEST_MCP_TOKEN}`, accept: 'text/event-stream' },
      });

      // Assess
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    });
  });
});
