// The low-level `Server` (McpServer's own engine): McpServer answers a call to a tool it does not
// list with a protocol error, refuses bad arguments in its own words and converts every schema on
// each tools/list; this edge needs per-key tool lists, the REST error codes and schemas built once.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestParamsSchema,
  CallToolRequestSchema,
  ErrorCode as RpcErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod/v4';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import { ApiError } from '../domain/errors.js';
import type { Clock } from '../domain/clock.js';
import type { Principal, RequestContext } from '../domain/tenancy.js';
import type { ApiKeyAuthReader } from '../domain/api-keys/ports.js';
import type { RateLimiter } from '../edge/rate-limit.js';
import { authorize, mayCall } from '../operations/authorize.js';
import type { Cursors } from '../operations/define.js';
import { invoke } from '../operations/invoke.js';
import { apiErrorResult, operationResult } from './outcomes.js';
import { resolveCall, toolCatalog, type McpTool } from './tools.js';
import { log } from '../observability/log.js';
import { noteScope } from '../observability/scope.js';
import type { SecretSource } from '../secrets/secret-source.js';

export const SERVER_INFO = { name: 'allowance', title: 'Allowance', version: '0.1.0' } as const;

/**
 * The Server validates elicitation answers with a JSON Schema validator, by default a new Ajv per
 * server (about 0.1 ms of CPU, a fifth of a tool call's cost here). A stateless server never
 * elicits (ARCHITECTURE.md, facts of 2026-11-22), so it gets one that refuses everything.
 */
const NO_ELICITATION: jsonSchemaValidator = {
  getValidator: () => () => ({ valid: false, data: undefined, errorMessage: 'this stateless server does not elicit' }),
};

/** What the MCP edge needs from the composition root (functions/mcp/handler.ts wires it). */
export interface McpRuntime {
  authKeys: ApiKeyAuthReader;
  clock: Clock;
  rateLimiter: RateLimiter;
  cursors(): Promise<Cursors>;
  /** Every service the catalog's operations use (the container's, built on first use). */
  services: unknown;
  /** MCP_AUTH_TOKEN, or where to read it (shared/mcp/token.ts): without it every request is refused. */
  authToken: SecretSource | undefined;
  toolPrefix: string;
}

/** The authenticated caller of one HTTP request. */
export interface McpCaller {
  principal: Principal;
  requestId: string;
  sourceIp: string;
}

function instructionsOf(prefix: string): string {
  return [
    'Allowance: wallets, budgets and payments for AI agents. Every tool acts with the API key this server was given, with exactly its permissions; tools it may not use are not listed.',
    'Amounts are decimal strings in USD, such as "25.00". Before paying, check funds with ' + `${prefix}get_balance.`,
    'Tools that move money take an idempotencyKey: make one per payment and reuse it on every retry of that payment, or a retry may pay twice.',
    `A payment that a spend policy sends to a person for approval is queued, not failed: the result names the approval; check it later with ${prefix}get_approval and do not pay again.`,
    'Failures carry the REST error code (e.g. POLICY_DENIED, INSUFFICIENT_FUNDS), whether retrying can help and what to do next.',
  ].join('\n');
}

async function callTool(tool: McpTool, args: unknown, runtime: McpRuntime, caller: McpCaller): Promise<CallToolResult> {
  const { principal, requestId } = caller;
  try {
    // The order of checks of the HTTP edge (decisions.md section 1): permission, rate limit, validation.
    noteScope({ operation: tool.operation.name });
    authorize(tool.operation, principal);
    const decision = runtime.rateLimiter(`key:${principal.keyId}`);
    if (!decision.allowed)
      throw new ApiError('RATE_LIMIT_EXCEEDED', 'Too many requests; retry after the given number of seconds.', {
        retryAfter: decision.retryAfterS,
      });
    const call = resolveCall(tool, args);
    const auth: RequestContext = {
      principal,
      actor: { actorType: 'API_KEY', actorId: principal.keyId, ipAddress: caller.sourceIp },
      requestId,
    };
    const result = await invoke(call.operation, {
      services: runtime.services,
      auth,
      body: call.body,
      query: call.query,
      params: call.params,
      cursors: () => runtime.cursors(),
    });
    return operationResult(call.operation.summary, result, requestId, runtime.toolPrefix);
  } catch (error) {
    if (error instanceof ApiError) return apiErrorResult(error, requestId, runtime.toolPrefix);
    // Only client errors are exposed: the cause goes to the log with the request id.
    log.error('unexpected error', error, { tool: tool.name });
    return apiErrorResult(
      new ApiError('INTERNAL_ERROR', `Something went wrong on our side (request ${requestId}).`),
      requestId,
      runtime.toolPrefix,
    );
  }
}

/**
 * tools/call parsed leniently first: with the SDK's own schema a non-object `arguments` (null, an
 * array) fails before any handler and answers -32603 internal error; this way the SDK's tools/call
 * wrapper refuses it as -32602 invalid params (the JSON-RPC answer for malformed params), and
 * nothing runs.
 */
const CallToolWithAnyArguments = CallToolRequestSchema.extend({
  params: CallToolRequestParamsSchema.extend({ arguments: z.unknown().optional() }),
});

/**
 * One MCP server for one request (stateless Streamable HTTP) and one caller: tools/list shows the
 * tools the caller's key may use; tools/call runs the catalog operation through `invoke`, as the
 * HTTP edge does. A call to a tool of the catalog that the key may not use is a tool result with
 * the REST code (PERMISSION_DENIED, or SANDBOX_ONLY for a live key), not a protocol error.
 */
export function createMcpServer(runtime: McpRuntime, caller: McpCaller): Server {
  const catalog = toolCatalog(runtime.toolPrefix);
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: { listChanged: false } },
    instructions: instructionsOf(runtime.toolPrefix),
    jsonSchemaValidator: NO_ELICITATION,
  });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: catalog.tools.filter((tool) => mayCall(tool.operation, caller.principal)).map((tool) => tool.definition),
  }));
  server.setRequestHandler(CallToolWithAnyArguments, async (request) => {
    const tool = catalog.byName.get(request.params.name);
    if (!tool)
      throw new McpError(
        RpcErrorCode.InvalidParams,
        `Unknown tool: ${request.params.name}. tools/list shows the tools this key may use.`,
      );
    return callTool(tool, request.params.arguments, runtime, caller);
  });
  return server;
}
