import { randomBytes } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENV } from '../../shared/config/env-names.js';
import { startTestService, type TestService } from '../fixtures/local-service.js';
import { callTool, connectMcp, expectToolError, TEST_MCP_TOKEN, toolNames } from '../fixtures/mcp-client.js';
import type { Organization } from '../fixtures/organizations.js';

const CARD_TOOLS = ['create_card', 'list_cards', 'freeze_card', 'unfreeze_card'];
/** An agent key can not lift its card's guardrails: no unfreeze, no new limits (organization keys only). */
const AGENT_CARD_TOOLS = ['create_card', 'list_cards', 'freeze_card', 'cancel_card'];
const ORGANIZATION_ONLY_CARD_TOOLS = ['unfreeze_card', 'update_card'];
const LIMITS = [{ amount: '25.00', interval: 'per_authorization' }];

/** Every key of a JSON value, at any depth. */
function keysOf(value: unknown, into: Set<string> = new Set()): Set<string> {
  if (Array.isArray(value)) for (const item of value) keysOf(item, into);
  else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      into.add(key);
      keysOf(item, into);
    }
  }
  return into;
}

/**
 * The card tools of the MCP edge (POST /mcp of the local server, the SDK's own client; issue 13,
 * docs/api.md "Cards"): create_card, list_cards and freeze_card as an agent uses them,
 * unfreeze_card as the organization uses it (an agent key may not lift a guardrail), and the guarantee behind "details are never a tool": no tool shows the full number or the
 * CVC, and no details tool exists for any key.
 */
describe('cards over MCP: create, list, freeze, unfreeze; never the number or CVC', () => {
  let service: TestService;
  let org: Organization;
  let orgClient: Client;
  let agent: { id: string; apiKey: string };
  let agentClient: Client;
  let other: { id: string; apiKey: string };
  const clients: Client[] = [];
  /** Every tool result of the file, as the client received it. */
  const results: CallToolResult[] = [];
  let cardId: string;

  const connect = async (key: string) => {
    const client = await connectMcp(service.baseUrl, key);
    clients.push(client);
    return client;
  };
  const call = async (client: Client, name: string, args: Record<string, unknown> = {}) => {
    const result = await callTool(client, name, args);
    results.push(result);
    return result;
  };
  const ok = async <T = any>(client: Client, name: string, args: Record<string, unknown> = {}): Promise<T> => {
    const result = await call(client, name, args);
    expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
    return result.structuredContent as T;
  };
  /** The sandbox test helper (REST): what the card network would decide now. */
  const authorize = async (id: string, amount: string) => {
    const response = await service.call('POST', `/v1/test-helpers/cards/${id}/authorizations`, {
      key: org.key,
      body: { amount, merchant: { name: 'OpenAI', category: '5734' } },
    });
    expect(response.status, response.text).toBe(201);
    return response.body as { status: string; reason: string | null };
  };

  beforeAll(async () => {
    service = await startTestService({
      [ENV.mcpAuthToken]: TEST_MCP_TOKEN,
      [ENV.dataEncryptionKey]: randomBytes(32).toString('hex'),
    });
    org = await service.createOrganization('Cards MCP Org');
    orgClient = await connect(org.key);
    await ok(orgClient, 'fund_wallet', { id: org.mainWalletId, amount: '500.00' });
    agent = await ok(orgClient, 'create_agent', { name: 'Card Shopper' });
    await ok(orgClient, 'adjust_budget', { id: agent.id, amount: '100.00', idempotencyKey: 'cards-mcp-budget' });
    other = await ok(orgClient, 'create_agent', { name: 'Other Shopper' });
    agentClient = await connect(agent.apiKey);
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await service.close();
  });

  it('lists the card tools for an agent key and an organization key, and no details tool for either', async () => {
    for (const client of [agentClient, orgClient]) {
      const names = await toolNames(client);
      expect(names).toEqual(
        expect.arrayContaining(
          client === agentClient ? AGENT_CARD_TOOLS : [...CARD_TOOLS, ...ORGANIZATION_ONLY_CARD_TOOLS],
        ),
      );
      expect(names.filter((name) => /detail|number|cvc|sensitive|reveal/i.test(name))).toEqual([]);
    }
    const agentNames = await toolNames(agentClient);
    for (const name of ORGANIZATION_ONLY_CARD_TOOLS) expect(agentNames, name).not.toContain(name);
    const { tools } = await orgClient.listTools();
    for (const name of CARD_TOOLS) {
      const tool = tools.find((candidate) => candidate.name === `allowance_${name}`)!;
      // Neither the inputs nor the declared outputs have a place for the number or the CVC.
      for (const key of keysOf(tool.outputSchema ?? {}))
        expect(key, `${name} output`).not.toMatch(/^(number|cvc|cvv|pan)$/i);
      for (const key of keysOf(tool.inputSchema)) expect(key, `${name} input`).not.toMatch(/^(number|cvc|cvv|pan)$/i);
    }
    expect(tools.find((tool) => tool.name === 'allowance_list_cards')!.annotations).toMatchObject({
      readOnlyHint: true,
    });
    expect(tools.find((tool) => tool.name === 'allowance_freeze_card')!.annotations).toMatchObject({
      readOnlyHint: false,
    });
  });

  it('refuses a details tool by name, whoever asks: it does not exist', async () => {
    for (const client of [agentClient, orgClient]) {
      for (const name of ['allowance_get_card_details', 'allowance_card_details']) {
        await expect(client.callTool({ name, arguments: { id: 'card_x' } })).rejects.toThrow(/Unknown tool/);
      }
    }
  });

  it("lets the agent create a card on its own wallet (metadata only), and no other wallet's", async () => {
    const card = await ok(agentClient, 'create_card', {
      walletId: agent.id,
      type: 'PERSISTENT',
      spendingLimits: LIMITS,
    });
    expect(card).toMatchObject({
      object: 'card',
      walletId: agent.id,
      type: 'PERSISTENT',
      status: 'ACTIVE',
      brand: 'visa',
      spendingLimits: LIMITS,
    });
    expect(card.last4).toMatch(/^\d{4}$/);
    for (const key of ['number', 'cvc', 'expMonth', 'expYear', 'secrets']) expect(Object.keys(card)).not.toContain(key);
    cardId = card.id;
    expectToolError(
      await call(agentClient, 'create_card', { walletId: other.id, type: 'PERSISTENT' }),
      'WALLET_NOT_FOUND',
    );
    expectToolError(await call(agentClient, 'create_card', { walletId: agent.id, type: 'DEBIT' }), 'VALIDATION_ERROR');
  });

  it("lists the agent's own cards only; the organization sees every wallet's, or one wallet's", async () => {
    const otherCard = await ok(orgClient, 'create_card', { walletId: other.id, type: 'SINGLE_USE' });
    const mine = await ok(agentClient, 'list_cards', { limit: 100 });
    expect(mine.data.map((card: { id: string }) => card.id)).toEqual([cardId]);
    const all = await ok(orgClient, 'list_cards', { limit: 100 });
    expect(all.data.map((card: { id: string }) => card.id).sort()).toEqual([cardId, otherCard.id].sort());
    const ofOther = await ok(orgClient, 'list_cards', { walletId: other.id });
    expect(ofOther.data.map((card: { id: string }) => card.id)).toEqual([otherCard.id]);
    expectToolError(await call(agentClient, 'list_cards', { walletId: other.id }), 'WALLET_NOT_FOUND');
    // A card of another wallet is not the agent's to freeze.
    expectToolError(await call(agentClient, 'freeze_card', { id: otherCard.id }), 'CARD_NOT_FOUND');
  });

  it('freezes the card as the agent (authorizations declined card_inactive, a second freeze changes nothing); only the organization unfreezes it', async () => {
    expect(await authorize(cardId, '10.00')).toMatchObject({ status: 'APPROVED' });
    const frozen = await ok(agentClient, 'freeze_card', { id: cardId });
    expect(frozen).toMatchObject({ id: cardId, status: 'INACTIVE' });
    expect(await ok(agentClient, 'freeze_card', { id: cardId })).toMatchObject({ status: 'INACTIVE' });
    expect(await authorize(cardId, '10.00')).toMatchObject({ status: 'DECLINED', reason: 'card_inactive' });
    expect((await ok(agentClient, 'list_cards', {})).data[0]).toMatchObject({ id: cardId, status: 'INACTIVE' });
    expectToolError(await call(agentClient, 'unfreeze_card', { id: cardId }), 'PERMISSION_DENIED');
    expectToolError(
      await call(agentClient, 'update_card', {
        id: cardId,
        spendingLimits: [{ amount: '1000.00', interval: 'per_authorization' }],
      }),
      'PERMISSION_DENIED',
    );
    expect((await ok(agentClient, 'list_cards', {})).data[0]).toMatchObject({
      id: cardId,
      status: 'INACTIVE',
      spendingLimits: LIMITS,
    });
    const unfrozen = await ok(orgClient, 'unfreeze_card', { id: cardId });
    expect(unfrozen).toMatchObject({ id: cardId, status: 'ACTIVE' });
    expect(await authorize(cardId, '10.00')).toMatchObject({ status: 'APPROVED' });
    expectToolError(await call(orgClient, 'unfreeze_card', { id: 'card_doesnotexist' }), 'CARD_NOT_FOUND');
  });

  it('never returns the full number or the CVC from any tool call of this file', async () => {
    // The details, read over REST with the organization key (the only way to them).
    const cards = (await ok(orgClient, 'list_cards', { limit: 100 })).data as { id: string }[];
    const details: { number: string; cvc: string }[] = [];
    for (const { id } of cards) {
      const response = await service.call('GET', `/v1/cards/${id}/details`, { key: org.key });
      expect(response.status, response.text).toBe(200);
      details.push({ number: response.body.number, cvc: response.body.cvc });
    }
    expect(details.length).toBe(2);
    expect(results.length).toBeGreaterThan(10);
    const everything = results.map((result) => JSON.stringify(result)).join('\n');
    for (const { number, cvc } of details) {
      expect(number).toMatch(/^400000\d{10}$/);
      expect(everything).not.toContain(number);
      expect(everything).not.toContain(number.slice(0, 12));
      expect(everything).not.toContain(`"${cvc}"`);
    }
    for (const result of results)
      for (const key of keysOf(result.structuredContent ?? {})) expect(key).not.toMatch(/^(number|cvc|cvv|pan)$/i);
  });
});
