import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { DEFAULT_MCP_TOOL_PREFIX, loadConfig } from '../../shared/config/config.js';
import { ERROR_CODES } from '../../shared/domain/errors.js';
import { exampleOf } from '../../shared/domain/views.js';
import { viewOf } from '../../shared/domain/view-registry.js';
import {
  DEFAULT_AGENT_PERMISSIONS,
  ORGANIZATION_PERMISSIONS,
  OPERATOR_PERMISSION,
  type Principal,
} from '../../shared/domain/tenancy.js';
import { tokenMatches } from '../../shared/mcp/http.js';
import { errorResult, operationResult, queuedPaymentResult, queuedResult } from '../../shared/mcp/outcomes.js';
import { createMcpServer, type McpRuntime } from '../../shared/mcp/server.js';
import { buildToolCatalog, MONEY_IDEMPOTENCY_KEY_DESCRIPTION, resolveCall } from '../../shared/mcp/tools.js';
import { mayCall } from '../../shared/operations/authorize.js';
import { CATALOG_ENTRIES } from '../../shared/operations/index.js';

type Schema = {
  description?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  type?: unknown;
};

/** Paths to every property (at any depth, in every branch) that has no description. */
function undescribed(schema: Schema, at: string): string[] {
  const own = Object.entries(schema.properties ?? {}).flatMap(([name, child]) => [
    ...(child.description ? [] : [`${at}.${name}`]),
    ...undescribed(child, `${at}.${name}`),
  ]);
  const nested = [schema.items, ...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]
    .filter((s): s is Schema => s !== undefined)
    .flatMap((s) => undescribed(s, `${at}[]`));
  return [...own, ...nested];
}

const PREFIX = DEFAULT_MCP_TOOL_PREFIX;
const catalog = buildToolCatalog(PREFIX);
const toolOf = (name: string) => catalog.byName.get(`${PREFIX}${name}`)!;

const principal = (kind: Principal['kind'], permissions: Principal['permissions']): Principal => ({
  kind,
  keyId: `key_${kind.toLowerCase()}`,
  organizationId: kind === 'OPERATOR' ? null : 'org_test',
  environment: kind === 'OPERATOR' ? null : 'SANDBOX',
  permissions,
  walletId: kind === 'AGENT' ? 'wal_agent' : null,
});
const ORGANIZATION = principal('ORGANIZATION', [...ORGANIZATION_PERMISSIONS]);
const AGENT = principal('AGENT', DEFAULT_AGENT_PERMISSIONS);
const OPERATOR = principal('OPERATOR', [OPERATOR_PERMISSION]);

describe('MCP tools: one per catalog operation marked for MCP', () => {
  it('has a tool named <prefix><mcp.tool> for every operation that declares mcp, and no other tool', () => {
    const expected = CATALOG_ENTRIES.flatMap(({ operation }) =>
      operation.mcp ? [`${PREFIX}${operation.mcp.tool}`] : [],
    ).sort();
    expect(catalog.tools.map((t) => t.name).sort()).toEqual(expected);
    for (const tool of catalog.tools) expect(tool.definition.name).toBe(tool.name);
  });

  it('offers a tool for every operation an agent key may call (access "key")', () => {
    const missing = CATALOG_ENTRIES.filter(({ operation }) => operation.access === 'key' && !operation.mcp).map(
      ({ operation }) => operation.name,
    );
    expect(missing).toEqual([]);
  });

  it('has the tools of spec 4.13 whose areas exist, and the extras of decisions section 10', () => {
    const names = catalog.tools.map((t) => t.name.slice(PREFIX.length));
    const spec = [
      'create_agent',
      'list_agents',
      'get_agent',
      'adjust_budget',
      'pause_agent',
      'resume_agent',
      'rotate_agent_key',
      'delete_agent',
      'query_audit_logs',
    ];
    const extras = ['create_payment', 'get_balance', 'get_approval', 'list_transactions'];
    expect(names).toEqual(expect.arrayContaining([...spec, ...extras]));
  });

  // The MCP function's card service has no authorization engine (shared/runtime/services/card-tools.ts):
  // the operations that run it are the sandbox helpers playing the card network, and none is a tool.
  it('runs no card authorization: the card network helpers are neither tools nor variants', () => {
    const engineOperations = [
      'createTestAuthorization',
      'captureTestAuthorization',
      'reverseTestAuthorization',
      'refundTestAuthorization',
    ];
    const cardOperations = CATALOG_ENTRIES.filter(({ group }) => group === 'cards').map(({ operation }) => operation);
    expect(cardOperations.filter((op) => engineOperations.includes(op.name)).map((op) => op.name)).toEqual(
      engineOperations,
    );
    const run = catalog.tools.flatMap((tool) => [
      tool.operation.name,
      ...(tool.variant ? [tool.variant.operation.name] : []),
    ]);
    expect(run.filter((name) => engineOperations.includes(name))).toEqual([]);
  });

  it('accepts a templateId in create_agent (spec 4.13)', () => {
    expect(Object.keys(toolOf('create_agent').definition.inputSchema.properties ?? {})).toContain('templateId');
  });

  it('follows MCP_TOOL_PREFIX', () => {
    expect(loadConfig({ TABLE_NAME: 'table' }).mcpToolPrefix).toBe('allowance_');
    expect(loadConfig({ TABLE_NAME: 'table', MCP_TOOL_PREFIX: 'acme_' }).mcpToolPrefix).toBe('acme_');
    expect(() => loadConfig({ TABLE_NAME: 'table', MCP_TOOL_PREFIX: 'bad prefix' })).toThrow(/MCP_TOOL_PREFIX/);
    expect(buildToolCatalog('acme_').tools.map((t) => t.name)).toContain('acme_create_payment');
  });

  describe.each(catalog.tools.map((tool) => [tool.name, tool] as const))('%s', (_name, tool) => {
    const definition: Tool = tool.definition;

    it('describes itself and every input and output field, for a model to read', () => {
      expect(definition.description!.length).toBeGreaterThan(20);
      expect(definition.inputSchema.type).toBe('object');
      expect(undescribed(definition.inputSchema as Schema, 'input')).toEqual([]);
      expect(definition.outputSchema?.type).toBe('object');
      expect(undescribed(definition.outputSchema as Schema, 'output')).toEqual([]);
    });

    it('carries all four hints, read-only exactly for reads', () => {
      const hints = definition.annotations!;
      for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const)
        expect(typeof hints[hint]).toBe('boolean');
      expect(hints.readOnlyHint).toBe(tool.operation.http.method === 'GET');
    });

    it('says plainly, if it moves money, that a retry without idempotencyKey may pay twice', () => {
      if (tool.operation.idempotency !== 'key') return;
      const key = (definition.inputSchema.properties as Record<string, Schema>).idempotencyKey;
      expect(key?.description).toBe(MONEY_IDEMPOTENCY_KEY_DESCRIPTION);
      expect(key?.description).toMatch(/Without it a retry may pay twice/);
      expect(definition.description).toMatch(/may pay twice/);
    });

    it("has an output schema that the SDK client (ajv) compiles and that the operation's example satisfies", () => {
      const validate = new AjvJsonSchemaValidator().getValidator(definition.outputSchema as never);
      const example = exampleOf(viewOf(tool.operation.output));
      if (example !== undefined) expect(validate(example).errorMessage).toBeUndefined();
    });
  });
});

describe('MCP tool calls: arguments', () => {
  it("splits path parameters, query and body and validates each with the operation's schemas", () => {
    const call = resolveCall(toolOf('create_payment'), {
      from: 'wal_a',
      to: 'MERCHANT:Shop.Example.com',
      amount: '1.00',
      idempotencyKey: 'k1',
    });
    expect(call).toMatchObject({
      params: {},
      body: { from: 'wal_a', to: 'merchant:shop.example.com', amount: '1.00', idempotencyKey: 'k1' },
    });
    expect(resolveCall(toolOf('list_transactions'), { id: 'wal_a', limit: 5 })).toMatchObject({
      params: { id: 'wal_a' },
      query: { limit: '5' },
    });
  });

  it('refuses unknown fields, missing fields and malformed ids with VALIDATION_ERROR naming the field', () => {
    const fieldOf = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        return (error as { code: string; details: { field: string } }).details.field;
      }
      return undefined;
    };
    expect(fieldOf(() => resolveCall(toolOf('get_balance'), { id: 'wal_a', balance: '1' }))).toBe('balance');
    expect(fieldOf(() => resolveCall(toolOf('get_balance'), {}))).toBe('id');
    expect(fieldOf(() => resolveCall(toolOf('get_balance'), { id: '../../etc' }))).toBe('id');
    expect(fieldOf(() => resolveCall(toolOf('create_payment'), { from: 'wal_a', amount: '1' }))).toBe('to');
  });

  it('cancel_payment_link takes the link id alone: status defaults to CANCELLED (the only value PATCH takes)', () => {
    const tool = toolOf('cancel_payment_link');
    const input = tool.definition.inputSchema as Schema & { required?: string[] };
    expect(input.required).toEqual(['id']);
    expect((input.properties as Record<string, Schema & { default?: unknown }>).status?.default).toBe('CANCELLED');
    expect(resolveCall(tool, { id: 'lnk_a' })).toMatchObject({
      params: { id: 'lnk_a' },
      body: { status: 'CANCELLED' },
    });
    expect(resolveCall(tool, { id: 'lnk_a', status: 'CANCELLED' }).body).toEqual({ status: 'CANCELLED' });
    expect(() => resolveCall(tool, { id: 'lnk_a', status: 'ACTIVE' })).toThrow(/status/);
  });

  it('answers a payment link queued for approval with its paymentLinkId (and says its hold is taken)', () => {
    const details = {
      approvalId: 'apr_1',
      transactionId: 'txn_1',
      expiresAt: '2026-11-30T10:00:00.000Z',
      paymentLinkId: 'lnk_1',
    };
    const result = queuedResult(details, 'get_approval');
    expect(result.structuredContent).toMatchObject({ outcome: 'QUEUED_FOR_APPROVAL', paymentLinkId: 'lnk_1' });
    expect(queuedPaymentResult.safeParse(result.structuredContent).success).toBe(true);
    expect((result.content[0] as { text: string }).text).toMatch(/lnk_1 .*PENDING_APPROVAL, its amount and fee held/);
    const payment = queuedResult({ ...details, paymentLinkId: undefined }, 'get_approval');
    expect(payment.structuredContent).not.toHaveProperty('paymentLinkId');
  });

  it('runs create_agent with a templateId as the template operation', () => {
    expect(resolveCall(toolOf('create_agent'), { name: 'R', templateId: 'research' }).operation.name).toBe(
      'createAgentFromTemplate',
    );
    expect(resolveCall(toolOf('create_agent'), { name: 'R' }).operation.name).toBe('createAgent');
    expect(() =>
      resolveCall(toolOf('create_agent'), { name: 'R', templateId: 'research', permissions: ['wallets:read'] }),
    ).toThrow(/permissions/);
  });
});

describe('MCP tool results', () => {
  it('answers APPROVAL_REQUIRED (202) as a success naming the approval and the tool to check it', () => {
    const details = { approvalId: 'apr_abc', transactionId: 'txn_abc', expiresAt: '2026-03-17T11:15:00.000Z' };
    const result = operationResult(
      'Pay',
      { status: 202, body: { error: { code: 'APPROVAL_REQUIRED', message: 'queued', details } }, replayed: false },
      'req',
      PREFIX,
    );
    expect(result.isError).toBeUndefined();
    expect(queuedPaymentResult.safeParse(result.structuredContent).success).toBe(true);
    expect(result.structuredContent).toMatchObject({ ...details, checkWith: 'allowance_get_approval' });
    expect((result.content[0] as { text: string }).text).toMatch(/queued.*apr_abc.*allowance_get_approval/s);
  });

  it('answers a replayed refusal or a partial batch as isError with the REST code', () => {
    const result = operationResult(
      'Pay',
      { status: 402, body: { error: { code: 'INSUFFICIENT_FUNDS', message: 'no money' } }, replayed: true },
      'req',
      PREFIX,
    );
    expect(result.isError).toBe(true);
    expect(JSON.parse((result.content[1] as { text: string }).text).error).toMatchObject({
      code: 'INSUFFICIENT_FUNDS',
      status: 402,
      retryable: false,
    });
  });

  it('gives every error code its status, whether to retry and a next step', () => {
    for (const code of ERROR_CODES) {
      const result = errorResult({ code, message: 'm' }, 'req', PREFIX);
      const error = JSON.parse((result.content[1] as { text: string }).text).error as Record<string, unknown>;
      expect(error, code).toMatchObject({
        code,
        status: expect.any(Number),
        retryable: expect.any(Boolean),
        nextStep: expect.any(String),
        requestId: 'req',
      });
      expect(result.structuredContent).toBeUndefined();
    }
  });

  it('summarizes a success in one line and carries the same JSON as text', () => {
    const body = { object: 'payment', id: 'txn_1', status: 'POSTED', amount: '1.00' };
    const result = operationResult('Pay from a wallet', { status: 200, body, replayed: false }, 'req', PREFIX);
    expect(result.structuredContent).toEqual(body);
    expect((result.content[0] as { text: string }).text).toBe(
      'Pay from a wallet: done (object payment, id txn_1, status POSTED, amount 1.00).',
    );
    expect(JSON.parse((result.content[1] as { text: string }).text)).toEqual(body);
  });
});

describe('MCP server per caller', () => {
  const runtime: McpRuntime = {
    authKeys: { getApiKeyByHash: () => Promise.resolve(undefined), touchApiKey: () => Promise.resolve() },
    clock: { now: () => new Date() },
    rateLimiter: () => ({ allowed: true, retryAfterS: 0 }),
    cursors: () => Promise.reject(new Error('no cursors in this test')),
    services: {},
    authToken: async () => 'token-0123456789abcdef',
    toolPrefix: PREFIX,
  };

  async function clientFor(caller: Principal) {
    const server = createMcpServer(runtime, { principal: caller, requestId: 'req', sourceIp: '127.0.0.1' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'unit', version: '1' });
    await client.connect(clientSide);
    return client;
  }

  it('lists exactly the tools the key may use: an agent key sees no organization-only tool, an operator key none', async () => {
    for (const caller of [ORGANIZATION, AGENT, OPERATOR]) {
      const { tools } = await (await clientFor(caller)).listTools();
      const expected = catalog.tools.filter((t) => mayCall(t.operation, caller)).map((t) => t.name);
      expect(tools.map((t) => t.name)).toEqual(expected);
    }
    const agentTools = (await (await clientFor(AGENT)).listTools()).tools.map((t) => t.name);
    expect(agentTools).not.toContain('allowance_create_agent');
    expect(agentTools).toContain('allowance_create_payment');
  });

  it('answers a call to a tool the key may not use with isError PERMISSION_DENIED, before validating anything', async () => {
    const result = (await (
      await clientFor(AGENT)
    ).callTool({ name: 'allowance_create_agent', arguments: { bogus: true } })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(JSON.parse((result.content[1] as { text: string }).text).error).toMatchObject({
      code: 'PERMISSION_DENIED',
      status: 403,
      retryable: false,
    });
  });

  it('answers a rate-limited call with RATE_LIMIT_EXCEEDED and retryAfter', async () => {
    const limited = { ...runtime, rateLimiter: () => ({ allowed: false, retryAfterS: 7 }) };
    const server = createMcpServer(limited, { principal: AGENT, requestId: 'req', sourceIp: '127.0.0.1' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'unit', version: '1' });
    await client.connect(clientSide);
    const result = (await client.callTool({
      name: 'allowance_get_balance',
      arguments: { id: 'wal_agent' },
    })) as CallToolResult;
    expect(JSON.parse((result.content[1] as { text: string }).text).error).toMatchObject({
      code: 'RATE_LIMIT_EXCEEDED',
      retryable: true,
      details: { retryAfter: 7 },
    });
  });
});

describe('MCP token check', () => {
  it('matches only the same token, whatever the lengths', () => {
    expect(tokenMatches('token-0123456789abcdef', 'token-0123456789abcdef')).toBe(true);
    expect(tokenMatches('token-0123456789abcdeg', 'token-0123456789abcdef')).toBe(false);
    expect(tokenMatches('t', 'token-0123456789abcdef')).toBe(false);
    expect(tokenMatches(undefined, 'token-0123456789abcdef')).toBe(false);
    expect(tokenMatches('token-0123456789abcdef', undefined)).toBe(false);
  });
});

// The queued schema is part of create_payment's output schema: it must carry descriptions too.
describe('the queued result schema', () => {
  it('describes every field', () => {
    expect(undescribed(z.toJSONSchema(queuedPaymentResult, { io: 'output' }) as Schema, 'queued')).toEqual([]);
  });
});
