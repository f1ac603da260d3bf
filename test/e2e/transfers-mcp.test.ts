import { randomBytes } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENV } from '../../shared/config/env-names.js';
import { eventually } from '../fixtures/eventually.js';
import { startTestService, type TestService } from '../fixtures/local-service.js';
import { callOk, callTool, connectMcp, TEST_MCP_TOKEN, toolNames } from '../fixtures/mcp-client.js';

/**
 * The transfer tools of the MCP edge as an agent uses them (issue 12): allowance_deposit_wallet,
 * allowance_withdraw_wallet, allowance_get_transfer, allowance_list_transfers,
 * allowance_cancel_transfer; the same domain code and codes as the REST operations.
 */
describe('transfers over MCP', () => {
  let service: TestService;
  let org: Awaited<ReturnType<TestService['createOrganization']>>;
  let orgClient: Client;
  let agentClient: Client;
  let agent: { id: string; apiKey: string };
  const bank = { type: 'ACH', routingNumber: '021000021', accountNumber: '000123456789' };

  beforeAll(async () => {
    service = await startTestService({
      [ENV.mcpAuthToken]: TEST_MCP_TOKEN,
      [ENV.dataEncryptionKey]: randomBytes(32).toString('hex'),
    });
    org = await service.createOrganization('Transfers MCP Org');
    orgClient = await connectMcp(service.baseUrl, org.key);
    await callOk(orgClient, 'fund_wallet', { id: org.mainWalletId, amount: '500.00' });
    agent = await callOk(orgClient, 'create_agent', { name: 'Treasurer' });
    await callOk(orgClient, 'adjust_budget', {
      id: agent.id,
      amount: '100.00',
      idempotencyKey: 'transfers-mcp-budget',
    });
    agentClient = await connectMcp(service.baseUrl, agent.apiKey);
  });
  afterAll(async () => {
    await Promise.all([orgClient.close(), agentClient.close()]);
    await service.close();
  });

  it('offers the transfer tools to an agent key, and the sandbox test helper to organization keys only', async () => {
    const agentTools = await toolNames(agentClient);
    expect(agentTools).toEqual(
      expect.arrayContaining([
        'deposit_wallet',
        'withdraw_wallet',
        'get_transfer',
        'list_transfers',
        'cancel_transfer',
        'create_internal_transfer',
      ]),
    );
    expect(agentTools).not.toContain('advance_test_transfer');
    expect(await toolNames(orgClient)).toContain('advance_test_transfer');
  });

  it('an agent deposits into and withdraws from its own wallet, follows and cancels a transfer', async () => {
    const deposit = await callOk(agentClient, 'deposit_wallet', {
      walletId: agent.id,
      amount: '50.00',
      currency: 'USD',
      source: bank,
      idempotencyKey: 'mcp-deposit-1',
    });
    expect(deposit).toMatchObject({
      object: 'transfer',
      direction: 'DEPOSIT',
      status: 'INITIATED',
      fee: '0.25',
      netAmount: '49.75',
    });
    expect(JSON.stringify(deposit)).not.toContain('000123456789');
    await eventually(
      async () => expect((await callOk(agentClient, 'get_transfer', { id: deposit.id })).status).toBe('COMPLETED'),
      10_000,
    );

    const withdrawal = await callOk(agentClient, 'withdraw_wallet', {
      walletId: agent.id,
      amount: '20.00',
      currency: 'USD',
      destination: bank,
      idempotencyKey: 'mcp-withdraw-1',
    });
    expect(withdrawal).toMatchObject({ direction: 'WITHDRAWAL', status: 'INITIATED', fee: '0.25' });
    await eventually(async () =>
      expect((await callOk(agentClient, 'get_transfer', { id: withdrawal.id })).status).toBe('PENDING'),
    );
    expect(await callOk(agentClient, 'cancel_transfer', { id: withdrawal.id })).toMatchObject({ status: 'CANCELLED' });
    const again = await callTool(agentClient, 'cancel_transfer', { id: withdrawal.id });
    expect(again.isError).toBe(true);
    expect(
      (again.structuredContent as { error?: { code?: string } } | undefined)?.error?.code ??
        JSON.stringify(again.content),
    ).toContain('INVALID_STATE');

    const listed = await callOk(agentClient, 'list_transfers', {});
    expect(listed.data.map((transfer: { id: string }) => transfer.id)).toEqual(
      expect.arrayContaining([deposit.id, withdrawal.id]),
    );
  });

  it('refuses what the REST API refuses, with the same codes: another wallet, a deposit under 25.00', async () => {
    const foreign = await callTool(agentClient, 'deposit_wallet', {
      walletId: org.mainWalletId,
      amount: '30.00',
      currency: 'USD',
      source: bank,
    });
    expect(foreign.isError).toBe(true);
    expect(JSON.stringify(foreign.content)).toContain('WALLET_NOT_FOUND');
    const small = await callTool(agentClient, 'deposit_wallet', {
      walletId: agent.id,
      amount: '24.99',
      currency: 'USD',
      source: bank,
    });
    expect(small.isError).toBe(true);
    expect(JSON.stringify(small.content)).toContain('INVALID_AMOUNT');
  });
});
