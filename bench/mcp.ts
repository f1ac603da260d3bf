/**
 * The MCP benchmark (npm run bench -- mcp): the CPU one MCP tool call costs in the MCP function
 * (functions/mcp/handler.ts, fed function URL events) beside the REST handler of the same
 * operation, with DynamoDB stubbed by replies recorded from DynamoDB Local (bench/lib/ddb-probe.ts,
 * document client), so the figures are the service's own CPU: per-request server and transport,
 * JSON-RPC, argument validation, `invoke`, the result shaping. Also what the session handshake
 * (initialize, tools/list) costs. bench/run.ts starts DynamoDB Local and sets the environment first.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { ensureTable } from '../bin/local/dynamodb-local.js';
import { runtimeOf } from '../functions/mcp/handler.js';
import { handler as paymentsLambda } from '../functions/payments/handler.js';
import { handler as walletsLambda } from '../functions/wallets/handler.js';
import { authenticate } from '../shared/auth/authenticate.js';
import { OPERATOR_PERMISSION, type RequestContext } from '../shared/domain/tenancy.js';
import { createMcpFunctionUrlHandler } from '../shared/mcp/function-url.js';
import { container } from '../shared/runtime/container.js';
import { installProbe, type DynamoProbe } from './lib/ddb-probe.js';
import { apiEvent, lambdaContext, type LambdaResult, type PaymentsHandler } from './lib/events.js';
import { fmt, summarize, table, type Summary } from './lib/stats.js';
import { paymentsBenchEnvironment } from './payments.js';
import { AUDIT } from '../shared/domain/audit/actions.js';

const MCP_TOKEN = 'bench-mcp-token-0123456789abcdef';
const AMOUNT = '0.01';
const RECORDING_CALLS = 3;

export interface McpBenchOptions {
  endpoint: string;
  invocations: number;
  warmup: number;
  log: (line: string) => void;
}

/**
 * The handlers share one process-wide container, created by whichever bench calls it first: this
 * bench uses the payments bench's table and environment, so either order works.
 */
const TABLE_NAME = 'bench-payments';

export interface McpCpuResult {
  variant: string;
  edge: 'MCP' | 'REST';
  invocations: number;
  callsPerInvocation: number;
  cpuUs: Summary;
  wallMs: Summary;
}

interface Variant {
  variant: string;
  edge: McpCpuResult['edge'];
  handler: PaymentsHandler;
  event(i: number): APIGatewayProxyEventV2;
  ok(result: LambdaResult): boolean;
}

async function setup() {
  const app = container();
  const operator: RequestContext = {
    principal: {
      kind: 'OPERATOR',
      keyId: 'key_bench_operator',
      organizationId: null,
      environment: null,
      permissions: [OPERATOR_PERMISSION],
      walletId: null,
    },
    actor: { actorType: 'SYSTEM', actorId: 'bench', ipAddress: '127.0.0.1' },
    requestId: 'bench-setup',
  };
  const org = await app.services.organizations.create(operator, AUDIT.organization.create, {
    name: 'MCP Bench Organization',
  });
  const { principal } = await authenticate(app.core.authKeys, `Bearer ${org.sandboxKey}`, app.clock.now());
  const ctx: RequestContext = {
    principal,
    actor: { actorType: 'API_KEY', actorId: principal.keyId, ipAddress: '127.0.0.1' },
    requestId: 'bench-setup',
  };
  const payer = await app.services.wallets.create(ctx, AUDIT.wallet.create, { name: 'MCP bench payer' });
  await app.services.wallets.fund(ctx, AUDIT.wallet.fund, payer.id, '10000.00');
  const payee = await app.services.wallets.create(ctx, AUDIT.wallet.create, { name: 'MCP bench payee' });
  return { key: org.sandboxKey, payer: payer.id, payee: payee.id };
}

function mcpEvent(key: string, message: unknown): APIGatewayProxyEventV2 {
  return apiEvent('POST', '/mcp', {
    body: message,
    headers: {
      authorization: `Bearer ${MCP_TOKEN}`,
      'x-api-key': key,
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': LATEST_PROTOCOL_VERSION,
    },
  });
}

const toolCall = (name: string, args: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name, arguments: args },
});

function mcpOk(result: LambdaResult): boolean {
  if (result.statusCode !== 200) return false;
  const body = JSON.parse(result.body ?? '{}') as { result?: { isError?: boolean } };
  return body.result !== undefined && body.result.isError !== true;
}

function variantsOf(fixture: Awaited<ReturnType<typeof setup>>): Variant[] {
  const run = randomUUID().slice(0, 8);
  // The MCP function's own wiring (functions/mcp/handler.ts), with the bench's token: the core
  // may have been created before MCP_AUTH_TOKEN was set.
  const mcp = createMcpFunctionUrlHandler(() => ({
    ...runtimeOf(container().core),
    authToken: async () => MCP_TOKEN,
  })) as unknown as PaymentsHandler;
  const rest200 = (result: LambdaResult) => result.statusCode === 200;
  const payment = (i: number) => ({
    from: fixture.payer,
    to: fixture.payee,
    amount: AMOUNT,
    idempotencyKey: `mcp-bench-${run}-${i}`,
  });
  return [
    {
      variant: 'get_balance',
      edge: 'MCP',
      handler: mcp,
      event: () => mcpEvent(fixture.key, toolCall('allowance_get_balance', { id: fixture.payer })),
      ok: mcpOk,
    },
    {
      variant: 'get_balance',
      edge: 'REST',
      handler: walletsLambda as unknown as PaymentsHandler,
      event: () => apiEvent('GET', '/v1/wallets/{id}/balance', { key: fixture.key }),
      ok: rest200,
    },
    {
      variant: 'create_payment (idempotency key)',
      edge: 'MCP',
      handler: mcp,
      event: (i) => mcpEvent(fixture.key, toolCall('allowance_create_payment', payment(i))),
      ok: mcpOk,
    },
    {
      variant: 'create_payment (idempotency key)',
      edge: 'REST',
      handler: paymentsLambda as unknown as PaymentsHandler,
      event: (i) => apiEvent('POST', '/v1/payments', { key: fixture.key, body: payment(1_000_000_000 + i) }),
      ok: rest200,
    },
    {
      variant: 'initialize',
      edge: 'MCP',
      handler: mcp,
      event: () =>
        mcpEvent(fixture.key, {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: LATEST_PROTOCOL_VERSION,
            capabilities: {},
            clientInfo: { name: 'bench', version: '1' },
          },
        }),
      ok: (r) => r.statusCode === 200,
    },
    {
      variant: 'tools/list (organization key)',
      edge: 'MCP',
      handler: mcp,
      event: () => mcpEvent(fixture.key, { jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      ok: (r) => r.statusCode === 200,
    },
  ];
}

/** The path parameter of the REST balance event (apiEvent takes the route key's path as is). */
function withPathParameter(event: APIGatewayProxyEventV2, id: string): APIGatewayProxyEventV2 {
  return event.routeKey.includes('{id}')
    ? { ...event, rawPath: event.rawPath.replace('{id}', id), pathParameters: { id } }
    : event;
}

const prefixOf = (op: string, input: Record<string, unknown>): string => {
  if (op === 'GetItem') return String((input.Key as { PK?: string } | undefined)?.PK ?? '').split('#')[0]!;
  if (op === 'Query')
    return String((input.ExpressionAttributeValues as Record<string, unknown> | undefined)?.[':pk'] ?? '').split(
      '#',
    )[0]!;
  return '';
};

async function measure(
  variant: Variant,
  probe: DynamoProbe,
  options: McpBenchOptions,
  payer: string,
): Promise<McpCpuResult> {
  const context = lambdaContext();
  const event = (i: number) => withPathParameter(variant.event(i), payer);
  // Real replies of DynamoDB Local for this request shape, keyed by command and key prefix.
  const replies = new Map<string, Record<string, unknown>>();
  probe.requestCapacity = false;
  probe.captureOutputs = true;
  for (let i = 0; i < RECORDING_CALLS; i++) {
    const { result, trace } = await probe.traced(() => variant.handler(event(-1 - i), context));
    if (!variant.ok(result))
      throw new Error(`${variant.edge} ${variant.variant} answered ${result.statusCode}: ${result.body}`);
    for (const call of trace.calls)
      if (call.output) replies.set(`${call.op}:${prefixOf(call.op, call.input ?? {})}`, call.output);
  }
  probe.captureOutputs = false;
  // The steady state: the key was used a moment ago, so no lastUsedAt write.
  const keyReply = replies.get('GetItem:KEYHASH');
  if (keyReply?.Item) (keyReply.Item as Record<string, unknown>).lastUsedAt = new Date().toISOString();
  probe.setDocumentStub((op, input) => {
    const reply = replies.get(`${op}:${prefixOf(op, input)}`);
    if (!reply) throw new Error(`no canned reply for ${op}`);
    const { $metadata: _m, ...rest } = reply;
    return rest;
  });
  try {
    const check = await probe.traced(() => variant.handler(event(100_000), context));
    if (!variant.ok(check.result))
      throw new Error(
        `stubbed ${variant.edge} ${variant.variant} answered ${check.result.statusCode}: ${check.result.body}`,
      );
    probe.observing = false;
    let n = 200_000;
    for (let i = 0; i < options.warmup; i++) await variant.handler(event(n++), context);
    const events = Array.from({ length: options.invocations }, () => event(n++));
    const cpu: number[] = [];
    const wall: number[] = [];
    for (const e of events) {
      const cpuBefore = process.cpuUsage();
      const started = performance.now();
      const result = await variant.handler(e, context);
      wall.push(performance.now() - started);
      const used = process.cpuUsage(cpuBefore);
      cpu.push(used.user + used.system);
      if (!variant.ok(result))
        throw new Error(`${variant.edge} ${variant.variant} failed under the stub: ${result.body}`);
    }
    return {
      variant: variant.variant,
      edge: variant.edge,
      invocations: events.length,
      callsPerInvocation: check.trace.calls.length,
      cpuUs: summarize(cpu),
      wallMs: summarize(wall),
    };
  } finally {
    probe.observing = true;
    probe.setDocumentStub(undefined);
    probe.requestCapacity = true;
  }
}

export async function runMcpBench(options: McpBenchOptions): Promise<{ cpu: McpCpuResult[] }> {
  await ensureTable(options.endpoint, TABLE_NAME);
  Object.assign(process.env, paymentsBenchEnvironment(options.endpoint, TABLE_NAME));
  const probe = installProbe();
  const fixture = await setup();
  options.log(
    `handler CPU per call with DynamoDB stubbed (${options.invocations} invocations after ${options.warmup} warm-up, per variant) ...`,
  );
  const cpu: McpCpuResult[] = [];
  for (const variant of variantsOf(fixture)) cpu.push(await measure(variant, probe, options, fixture.payer));
  return { cpu };
}

export function formatMcpReport(result: { cpu: McpCpuResult[] }): string {
  const rest = new Map(result.cpu.filter((r) => r.edge === 'REST').map((r) => [r.variant, r]));
  const rows = result.cpu.map((r) => {
    const base = r.edge === 'MCP' ? rest.get(r.variant) : undefined;
    const overhead = base
      ? `+${fmt(r.cpuUs.p50 - base.cpuUs.p50, 0)} us (${fmt(r.cpuUs.p50 / base.cpuUs.p50, 2)}x)`
      : '';
    return [
      r.variant,
      r.edge,
      r.invocations,
      r.callsPerInvocation,
      fmt(r.cpuUs.mean, 0),
      fmt(r.cpuUs.p50, 0),
      fmt(r.cpuUs.p99, 0),
      fmt(r.wallMs.p50, 3),
      overhead,
    ];
  });
  return [
    '== MCP handler CPU per tool call, beside the REST handler of the same operation (DynamoDB stubbed with recorded replies; process.cpuUsage per sequential invocation) ==',
    table(
      ['variant', 'edge', 'n', 'calls/inv', 'CPU mean us', 'CPU p50', 'CPU p99', 'wall p50 ms', 'MCP over REST (p50)'],
      rows,
    ),
    'Each MCP request builds its own server and transport (stateless Streamable HTTP); tool schemas are built once per process. A client session costs initialize + tools/list once, then one request per tool call.',
  ].join('\n');
}
