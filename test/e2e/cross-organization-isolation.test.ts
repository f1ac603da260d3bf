import { randomBytes } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENV } from '../../shared/config/env-names.js';
import { FEED_SETTLE_MS } from '../../shared/domain/events/event-feed.js';
import { built } from '../../shared/domain/validation.js';
import { CATALOG_ENTRIES } from '../../shared/operations/index.js';
import { eventually } from '../fixtures/eventually.js';
import { foreignActivity, tracesIn, type ForeignActivity } from '../fixtures/foreign-activity.js';
import { startTestService, type TestService } from '../fixtures/local-service.js';
import { callTool, connectMcp, TEST_MCP_TOKEN } from '../fixtures/mcp-client.js';
import { startReceiver } from '../fixtures/webhook-receiver.js';

type Organization = Awaited<ReturnType<TestService['createOrganization']>>;

/** A field that names an object: `id`, `walletId`, `cardId`, `resourceId`, ... */
const isIdField = (name: string) => name === 'id' || name.endsWith('Id');

/**
 * Decisions.md sections 1 and 3: an event (and every other object) is visible only to its own
 * organization and environment; the payee of a payment between organizations sees the payment,
 * never the payer's idempotency key. Organization A pays a wallet-scoped (agent) key's wallet of
 * organization B; B's agent key then reads everything it can.
 */
describe('a wallet-scoped key of another organization', () => {
  let service: TestService;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let a: Organization;
  let b: Organization;
  let agentB: { id: string; apiKey: string };
  let activity: ForeignActivity;
  let mcp: Client;

  beforeAll(async () => {
    service = await startTestService({
      [ENV.mcpAuthToken]: TEST_MCP_TOKEN,
      [ENV.dataEncryptionKey]: randomBytes(32).toString('hex'),
      WEBHOOK_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      // The walk below reads every list and get with one key, hundreds of calls.
      RATE_LIMIT_PER_SECOND: '5000',
      RATE_LIMIT_PER_MINUTE: '100000',
    });
    receiver = await startReceiver();
    a = await service.createOrganization('Paying org A');
    b = await service.createOrganization('Payee org B');
    const created = await service.call('POST', '/v1/agents', { key: b.key, body: { name: 'B agent' } });
    expect(created.status, created.text).toBe(201);
    agentB = { id: created.body.id, apiKey: created.body.apiKey };
    activity = await foreignActivity(service, a, agentB.id, receiver);
    mcp = await connectMcp(service.baseUrl, agentB.apiKey);
  });
  afterAll(async () => {
    await mcp?.close();
    await receiver?.close();
    await service?.close();
  });

  it("sees none of the paying organization's events: not in GET /v1/events, not by id, not through the MCP event tools", async () => {
    const listed = await service.call('GET', '/v1/events?limit=100', { key: agentB.apiKey });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.data.map((event: { organizationId: string }) => event.organizationId).filter((org: string) => org !== b.organizationId)).toEqual([]);
    expect(tracesIn(listed.text, activity)).toEqual([]);

    const paymentEvents = await service.call('GET', '/v1/events?type=payment.posted&limit=100', { key: a.key });
    const paid = paymentEvents.body.data.find((event: { data: { id: string } }) => event.data.id === activity.payment.id);
    expect(paid, paymentEvents.text).toBeDefined();
    const byId = await service.call('GET', `/v1/events/${paid.id}`, { key: agentB.apiKey });
    expect({ status: byId.status, code: byId.body.error?.code }).toEqual({ status: 404, code: 'EVENT_NOT_FOUND' });

    // The polling feed too, once A's payment event is in A's own feed (settled).
    await eventually(async () => {
      const own = await service.call('GET', '/v1/events?order=visible&type=payment.posted&limit=100', { key: a.key });
      expect(own.body.data.map((event: { id: string }) => event.id)).toContain(paid.id);
    }, FEED_SETTLE_MS + 5_000);
    const feed = await service.call('GET', '/v1/events?order=visible&limit=100', { key: agentB.apiKey });
    expect(feed.status, feed.text).toBe(200);
    expect(tracesIn(feed.text, activity)).toEqual([]);

    const tools = [await callTool(mcp, 'list_events', { limit: 100 }), await callTool(mcp, 'list_events', { type: 'payment.posted' }), await callTool(mcp, 'list_events', { order: 'visible' }), await callTool(mcp, 'get_event', { id: paid.id })];
    for (const result of tools) expect(tracesIn(JSON.stringify(result), activity)).toEqual([]);
    expect(tools[3]!.isError).toBe(true);
  });

  it('still sees the payment it received, without the payer\'s idempotency key', async () => {
    const payment = await service.call('GET', `/v1/payments/${activity.payment.id}`, { key: agentB.apiKey });
    expect(payment.status, payment.text).toBe(200);
    expect(payment.body).toMatchObject({ id: activity.payment.id, to: agentB.id, amount: '12.00', idempotencyKey: null });
    const statement = await service.call('GET', `/v1/wallets/${agentB.id}/transactions`, { key: agentB.apiKey });
    expect(statement.body.data.map((line: { transactionId: string }) => line.transactionId)).toContain(activity.payment.id);
  });

  /**
   * The walk is derived from the catalog and from the tools the key is offered, so a new list,
   * get or read tool is walked without editing this test. Each is called with no id and with
   * each of A's ids (one of each kind) in every id-like path parameter, filter or argument.
   */
  it("finds no trace of the other organization through any list, get or read-only MCP tool (every one of them, after a cross-organization payment)", async () => {
    const candidates = [...new Set([...activity.probeIds, activity.payment.id, activity.payment.from, agentB.id])];
    const leaks: string[] = [];
    const failures: string[] = [];
    let calls = 0;
    const check = (what: string, status: number, text: string) => {
      calls += 1;
      if (status >= 500) failures.push(`${what}: ${status} ${text.slice(0, 200)}`);
      const traces = tracesIn(text, activity);
      if (traces.length > 0) leaks.push(`${what} shows ${traces.join(', ')}`);
    };

    const reads = CATALOG_ENTRIES.map((entry) => entry.operation).filter((op) => op.http.method === 'GET');
    expect(reads.map((op) => op.name)).toEqual(expect.arrayContaining(['listEvents', 'getEvent', 'listTransfers', 'getTransfer', 'listCardAuthorizations', 'listWebhookDeliveries']));
    for (const op of reads) {
      const params = [...op.http.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
      const shape = op.query ? (((built(op.query) as unknown as { _zod: { def: { shape?: Record<string, unknown> } } })._zod.def.shape) ?? {}) : {};
      const filters = Object.keys(shape).filter(isIdField);
      const pathWith = (id: string) => params.reduce((path, name) => path.replace(`{${name}}`, encodeURIComponent(id)), op.http.path);
      const targets = params.length === 0 ? [op.http.path] : candidates.map(pathWith);
      for (const path of targets) {
        const queries = ['', ...filters.flatMap((filter) => candidates.map((id) => `${filter}=${encodeURIComponent(id)}`))];
        for (const query of queries) {
          const url = `${path}${query ? `?${query}&` : '?'}limit=100`;
          const response = await service.call('GET', op.query ? url : path, { key: agentB.apiKey });
          check(`GET ${op.query ? url : path} (${op.name})`, response.status, response.text);
        }
      }
    }

    const { tools } = await mcp.listTools();
    const readTools = tools.filter((tool) => tool.annotations?.readOnlyHint === true);
    expect(readTools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['allowance_list_events', 'allowance_get_event', 'allowance_list_transfers', 'allowance_list_card_authorizations']));
    for (const tool of readTools) {
      const properties = Object.keys((tool.inputSchema.properties ?? {}) as Record<string, unknown>).filter(isIdField);
      const required = ((tool.inputSchema.required ?? []) as string[]).filter(isIdField);
      const optional = properties.filter((name) => !required.includes(name));
      const argumentSets: Record<string, unknown>[] = required.length === 0 ? [{}] : [];
      for (const id of candidates) {
        const base = Object.fromEntries(required.map((name) => [name, id]));
        if (required.length > 0) argumentSets.push(base);
        for (const name of optional) argumentSets.push({ ...base, [name]: id });
      }
      for (const args of argumentSets) {
        const result = await mcp.callTool({ name: tool.name, arguments: args });
        check(`${tool.name} ${JSON.stringify(args)}`, result.isError ? Number((JSON.parse(String((result.content as { text: string }[])[1]?.text ?? '{}')) as { error?: { status?: number } }).error?.status ?? 0) : 200, JSON.stringify(result));
      }
    }

    expect(calls).toBeGreaterThan(300);
    expect(failures).toEqual([]);
    expect(leaks).toEqual([]);
  });
});
