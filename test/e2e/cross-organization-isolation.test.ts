import { randomBytes } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENV } from '../../shared/config/env-names.js';
import { FEED_SETTLE_MS } from '../../shared/domain/events/event-feed.js';
import { built } from '../../shared/domain/validation.js';
import { CATALOG_ENTRIES } from '../../shared/operations/index.js';
import { fillPath, pathParameterNames } from '../../shared/operations/paths.js';
import { eventually } from '../fixtures/eventually.js';
import {
  foreignActivity,
  normalizedAnswer,
  tracesIn,
  twinOf,
  type Answer,
  type ForeignActivity,
} from '../fixtures/foreign-activity.js';
import type { ApiResponse } from '../fixtures/local-service.js';
import { startTestService, type TestService } from '../fixtures/local-service.js';
import { callTool, connectMcp, TEST_MCP_TOKEN } from '../fixtures/mcp-client.js';
import { startReceiver } from '../fixtures/webhook-receiver.js';

type Organization = Awaited<ReturnType<TestService['createOrganization']>>;

/** A field that names an object: `id`, `walletId`, `cardId`, `resourceId`, ... */
const isIdField = (name: string) => name === 'id' || name.endsWith('Id');

/**
 * Probes in flight at once in the walk below: each is a request or two against the one in-process
 * server and DynamoDB Local, independent of the others (reads only), so a few at a time overlap
 * their round trips (about 37 s one by one on 2 busy cores) without crowding the machine.
 */
const WALK_CONCURRENCY = 6;

/** Runs every task, at most `limit` at a time (each task records its own findings). */
async function inParallel(tasks: readonly (() => Promise<void>)[], limit: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) await tasks[next++]!();
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
}

/** What an HTTP answer tells: status and error (the body for a success). */
const httpAnswer = (response: ApiResponse): Answer =>
  response.status < 300
    ? { status: response.status, body: response.body }
    : { status: response.status, code: response.body?.error?.code, message: response.body?.error?.message };

/** What a tool result tells: the error's status, code and message (its JSON block), or the structured content. */
const toolAnswer = (result: Awaited<ReturnType<Client['callTool']>>): Answer => {
  if (!result.isError) return { status: 200, body: result.structuredContent };
  const error = (
    JSON.parse(String((result.content as { text: string }[])[1]?.text ?? '{}')) as {
      error?: { status?: number; code?: string; message?: string };
    }
  ).error;
  return { status: Number(error?.status ?? 0), code: error?.code, message: error?.message };
};

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
      // ... and the public routes (invoice and payment-method pages' operations) from one IP.
      [ENV.publicRateLimitPerSecond]: '5000',
    });
    // What does not depend on each other is set up side by side.
    [receiver, a, b] = await Promise.all([
      startReceiver(),
      service.createOrganization('Paying org A'),
      service.createOrganization('Payee org B'),
    ]);
    const created = await service.call('POST', '/v1/agents', { key: b.key, body: { name: 'B agent' } });
    expect(created.status, created.text).toBe(201);
    agentB = { id: created.body.id, apiKey: created.body.apiKey };
    [activity, mcp] = await Promise.all([
      foreignActivity(service, a, agentB.id, receiver),
      connectMcp(service.baseUrl, agentB.apiKey),
    ]);
  });
  afterAll(async () => {
    await mcp?.close();
    await receiver?.close();
    await service?.close();
  });

  it("sees none of the paying organization's events: not in GET /v1/events, not by id, not through the MCP event tools", async () => {
    const listed = await service.call('GET', '/v1/events?limit=100', { key: agentB.apiKey });
    expect(listed.status, listed.text).toBe(200);
    expect(
      listed.body.data
        .map((event: { organizationId: string }) => event.organizationId)
        .filter((org: string) => org !== b.organizationId),
    ).toEqual([]);
    expect(tracesIn(listed.text, activity)).toEqual([]);

    const paymentEvents = await service.call('GET', '/v1/events?type=payment.posted&limit=100', { key: a.key });
    const paid = paymentEvents.body.data.find(
      (event: { data: { id: string } }) => event.data.id === activity.payment.id,
    );
    expect(paid, paymentEvents.text).toBeDefined();
    const byId = await service.call('GET', `/v1/events/${paid.id}`, { key: agentB.apiKey });
    expect({ status: byId.status, code: byId.body.error?.code }).toEqual({ status: 404, code: 'EVENT_NOT_FOUND' });
    // The 404 names the id asked for, and only it: exactly the answer for an event id that exists nowhere.
    const nowhere = twinOf(paid.id);
    expect(tracesIn(byId.text, activity, [paid.id])).toEqual([]);
    expect(normalizedAnswer(httpAnswer(byId), [paid.id])).toEqual(
      normalizedAnswer(httpAnswer(await service.call('GET', `/v1/events/${nowhere}`, { key: agentB.apiKey })), [
        nowhere,
      ]),
    );

    // The polling feed too, once A's payment event is in A's own feed (settled).
    await eventually(async () => {
      const own = await service.call('GET', '/v1/events?order=visible&type=payment.posted&limit=100', { key: a.key });
      expect(own.body.data.map((event: { id: string }) => event.id)).toContain(paid.id);
    }, FEED_SETTLE_MS + 5_000);
    const feed = await service.call('GET', '/v1/events?order=visible&limit=100', { key: agentB.apiKey });
    expect(feed.status, feed.text).toBe(200);
    expect(tracesIn(feed.text, activity)).toEqual([]);

    const tools = [
      await callTool(mcp, 'list_events', { limit: 100 }),
      await callTool(mcp, 'list_events', { type: 'payment.posted' }),
      await callTool(mcp, 'list_events', { order: 'visible' }),
    ];
    for (const result of tools) expect(tracesIn(JSON.stringify(result), activity)).toEqual([]);
    // get_event's error names the id asked for (an echo), and is the error for an id that exists nowhere.
    const getEvent = await callTool(mcp, 'get_event', { id: paid.id });
    expect(getEvent.isError).toBe(true);
    expect(tracesIn(JSON.stringify(getEvent), activity, [paid.id])).toEqual([]);
    expect(normalizedAnswer(toolAnswer(getEvent), [paid.id])).toEqual(
      normalizedAnswer(toolAnswer(await callTool(mcp, 'get_event', { id: nowhere })), [nowhere]),
    );
  });

  it("still sees the payment it received, without the payer's idempotency key", async () => {
    const payment = await service.call('GET', `/v1/payments/${activity.payment.id}`, { key: agentB.apiKey });
    expect(payment.status, payment.text).toBe(200);
    expect(payment.body).toMatchObject({
      id: activity.payment.id,
      to: agentB.id,
      amount: '12.00',
      idempotencyKey: null,
    });
    const statement = await service.call('GET', `/v1/wallets/${agentB.id}/transactions`, { key: agentB.apiKey });
    expect(statement.body.data.map((line: { transactionId: string }) => line.transactionId)).toContain(
      activity.payment.id,
    );
  });

  /**
   * The walk is derived from the catalog and from the tools the key is offered, so a new list,
   * get or read tool is walked without editing this test. Each is called with no id and with
   * each of A's ids (one of each kind) in every id-like path parameter, filter or argument.
   * An answer may name the ids its request carried (a 404 names the id asked for), nothing else of
   * A's; and every call made with one of A's ids answers exactly as the same call made with an id
   * of the same kind that exists nowhere (status, error code, message and body, the id replaced).
   */
  async function walk(part: 'routes' | 'tools') {
    const candidates = [...new Set([...activity.probeIds, activity.payment.id, activity.payment.from, agentB.id])];
    // A's ids B has no business knowing of: the payment B received and its payer wallet are B's to see
    // (the payer's wallet id is in the payment), but not as a wallet, a filter or anything else.
    const twins = new Map(activity.probeIds.map((id) => [id, twinOf(id)]));
    const leaks: string[] = [];
    const failures: string[] = [];
    const oracles: string[] = [];
    let calls = 0;
    let compared = 0;
    const check = (what: string, answer: Answer, text: string, carried: string[]) => {
      calls += 1;
      if (answer.status >= 500) failures.push(`${what}: ${answer.status} ${text.slice(0, 200)}`);
      const traces = tracesIn(text, activity, carried);
      if (traces.length > 0) leaks.push(`${what} shows ${traces.join(', ')}`);
    };
    /** The same call with each of A's ids replaced by its twin must answer the same. */
    const compare = async (
      what: string,
      answer: Answer,
      carried: string[],
      again: (swap: (text: string) => string) => Promise<Answer>,
    ) => {
      if (!carried.some((id) => twins.has(id))) return;
      const swap = (text: string) =>
        [...twins].reduce((out, [id, twin]) => (carried.includes(id) ? out.replaceAll(id, twin) : out), text);
      const twinAnswer = await again(swap);
      compared += 1;
      const mine = normalizedAnswer(answer, carried);
      const theirs = normalizedAnswer(twinAnswer, carried.map(swap));
      if (JSON.stringify(mine) !== JSON.stringify(theirs))
        oracles.push(
          `${what}: ${JSON.stringify(mine).slice(0, 300)} but for an id that exists nowhere ${JSON.stringify(theirs).slice(0, 300)}`,
        );
    };

    const reads =
      part === 'routes' ? CATALOG_ENTRIES.map((entry) => entry.operation).filter((op) => op.http.method === 'GET') : [];
    if (part === 'routes')
      expect(reads.map((op) => op.name)).toEqual(
        expect.arrayContaining([
          'listEvents',
          'getEvent',
          'listTransfers',
          'getTransfer',
          'listCardAuthorizations',
          'listWebhookDeliveries',
        ]),
      );
    // Every probe (a call, then the same call with A's ids replaced by their twins) is built first and
    // run a few at a time: they only read, and each records its own findings.
    const probes: (() => Promise<void>)[] = [];
    for (const op of reads) {
      const params = pathParameterNames(op.http.path);
      const shape = op.query
        ? ((built(op.query) as unknown as { _zod: { def: { shape?: Record<string, unknown> } } })._zod.def.shape ?? {})
        : {};
      const filters = Object.keys(shape).filter(isIdField);
      const pathWith = (id: string) => fillPath(op.http.path, () => encodeURIComponent(id));
      const targets: [string, string[]][] =
        params.length === 0 ? [[op.http.path, []]] : candidates.map((id) => [pathWith(id), [id]]);
      for (const [path, pathIds] of targets) {
        const queries: [string, string[]][] = [
          ['', []],
          ...filters.flatMap((filter) =>
            candidates.map((id): [string, string[]] => [`${filter}=${encodeURIComponent(id)}`, [id]]),
          ),
        ];
        for (const [query, queryIds] of queries) {
          const url = op.query ? `${path}${query ? `?${query}&` : '?'}limit=100` : path;
          const carried = [...new Set([...pathIds, ...queryIds])];
          probes.push(async () => {
            const response = await service.call('GET', url, { key: agentB.apiKey });
            const what = `GET ${url} (${op.name})`;
            check(what, httpAnswer(response), response.text, carried);
            await compare(what, httpAnswer(response), carried, async (swap) =>
              httpAnswer(await service.call('GET', swap(url), { key: agentB.apiKey })),
            );
          });
        }
      }
    }

    const { tools } = part === 'tools' ? await mcp.listTools() : { tools: [] };
    const readTools = tools.filter((tool) => tool.annotations?.readOnlyHint === true);
    if (part === 'tools')
      expect(readTools.map((tool) => tool.name)).toEqual(
        expect.arrayContaining([
          'allowance_list_events',
          'allowance_get_event',
          'allowance_list_transfers',
          'allowance_list_card_authorizations',
        ]),
      );
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
        probes.push(async () => {
          const result = await mcp.callTool({ name: tool.name, arguments: args });
          const carried = [
            ...new Set(Object.values(args).filter((value): value is string => typeof value === 'string')),
          ];
          const what = `${tool.name} ${JSON.stringify(args)}`;
          check(what, toolAnswer(result), JSON.stringify(result), carried);
          await compare(what, toolAnswer(result), carried, async (swap) =>
            toolAnswer(
              await mcp.callTool({
                name: tool.name,
                arguments: JSON.parse(swap(JSON.stringify(args))) as Record<string, unknown>,
              }),
            ),
          );
        });
      }
    }
    await inParallel(probes, WALK_CONCURRENCY);

    expect(calls).toBeGreaterThan(part === 'routes' ? 300 : 200);
    expect(compared).toBeGreaterThan(200);
    expect(failures).toEqual([]);
    expect(leaks).toEqual([]);
    expect(oracles).toEqual([]);
  }

  // The walk in two tests (each with the test timeout), the routes and the tools, the same checks.
  it('finds no trace of the other organization through any list or get route (every one of them, after a cross-organization payment)', () =>
    walk('routes'));

  it('finds no trace of the other organization through any read-only MCP tool (every one of them, after a cross-organization payment)', () =>
    walk('tools'));
});
