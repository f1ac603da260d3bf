import { createHash, timingSafeEqual } from 'node:crypto';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { authenticate, bearerToken, LAST_USED_WRITE_INTERVAL_MS } from '../auth/authenticate.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { ApiError } from '../domain/errors.js';
import type { Principal } from '../domain/tenancy.js';
import { MAX_BODY_BYTES } from '../edge/body-limit.js';
import { isJsonMediaType, JSON_MEDIA_TYPE } from '../http/request-body.js';
import { errorResponse, internalErrorResponse, type HttpResponse } from '../http/responses.js';
import { SECURITY_HEADERS } from '../http/security-headers.js';
import { API_KEY_HEADER, MCP_FUNCTION } from './function.js';
import { log } from '../observability/log.js';
import { noteScope } from '../observability/scope.js';
import { createMcpServer, type McpRuntime } from './server.js';

const MCP_PATH = MCP_FUNCTION.path;

/** Facts about the HTTP request that the edge records (audit actor, logs). */
export interface RequestFacts {
  requestId: string;
  sourceIp: string;
}

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/** Constant-time, also in the length: both sides are hashed to 32 bytes first. */
export function tokenMatches(presented: string | undefined, expected: string | undefined): boolean {
  if (presented === undefined || expected === undefined) return false;
  return timingSafeEqual(digest(presented), digest(expected));
}

function toResponse(answer: HttpResponse, requestId: string, extra: Record<string, string> = {}): Response {
  return new Response(answer.body, {
    status: answer.statusCode,
    headers: { ...answer.headers, ...extra, 'X-Request-Id': requestId },
  });
}

function withHeaders(response: Response, requestId: string): Response {
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) headers.set(name, value);
  headers.set('X-Request-Id', requestId);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

async function authenticateCaller(request: Request, runtime: McpRuntime): Promise<Principal> {
  const refused = () => new ApiError('UNAUTHORIZED', 'Send the MCP token as "Authorization: Bearer <MCP_AUTH_TOKEN>".');
  const unconfigured = () =>
    new ApiError('UNAUTHORIZED', 'The MCP endpoint is not configured (MCP_AUTH_TOKEN is unset).');
  if (!runtime.authToken) throw unconfigured();
  const presented = bearerToken(request.headers.get('authorization') ?? undefined);
  if (!presented) throw refused();
  // Read only for a request that brings a token (in AWS a read may go to Secrets Manager; a failed read answers 500).
  const expected = await runtime.authToken();
  if (!expected) throw unconfigured();
  if (!tokenMatches(presented, expected)) throw refused();
  const apiKey = request.headers.get(API_KEY_HEADER);
  if (!apiKey) throw new ApiError('UNAUTHORIZED', 'Send the API key the tools act with as "X-Api-Key: <key>".');
  const now = runtime.clock.now();
  const { principal, apiKey: stored } = await authenticate(runtime.authKeys, `Bearer ${apiKey}`, now);
  const lastUsed = stored.lastUsedAt ? new Date(stored.lastUsedAt).getTime() : 0;
  if (now.getTime() - lastUsed >= LAST_USED_WRITE_INTERVAL_MS)
    await runtime.authKeys.touchApiKey(stored.hash, now, LAST_USED_WRITE_INTERVAL_MS);
  return principal;
}

/** What the SDK's McpError puts before its message, which it then sends as the JSON-RPC error's message. */
const RPC_ERROR_PREFIX = /^(?:MCP error -?\d+: )+/;

/**
 * A JSON-RPC error goes out without the SDK's "MCP error <code>: " prefix: clients (the SDK's own)
 * add it when they raise the error, which showed it twice ("MCP error -32602: MCP error -32602:
 * Unknown tool"). Results are left as they are.
 */
function withoutErrorPrefix(message: JSONRPCMessage): JSONRPCMessage {
  if (!('error' in message) || typeof message.error.message !== 'string') return message;
  return { ...message, error: { ...message.error, message: message.error.message.replace(RPC_ERROR_PREFIX, '') } };
}

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The request with its body decoded strictly (the SDK's transport decodes leniently: invalid bytes
 * would become U+FFFD and the call would run), or the JSON-RPC parse error (-32700, HTTP 400) for a
 * body that is not UTF-8, or 415 for JSON declared in another charset. A body over the limit goes
 * on as is; the transport answers it 413.
 */
async function withUtf8Body(request: Request): Promise<Request | Response> {
  const contentType = request.headers.get('content-type');
  // The SDK checks the media type but not its charset: a charset other than UTF-8 is refused as the SDK refuses another type.
  if (
    contentType &&
    contentType.split(';')[0]!.trim().toLowerCase() === JSON_MEDIA_TYPE &&
    !isJsonMediaType(contentType)
  ) {
    const error = {
      jsonrpc: '2.0',
      error: { code: -32000, message: 'Unsupported Media Type: send the body as application/json in UTF-8' },
      id: null,
    };
    return new Response(JSON.stringify(error), {
      status: 415,
      headers: { 'Content-Type': 'application/json', Accept: JSON_MEDIA_TYPE },
    });
  }
  const bytes = new Uint8Array(await request.arrayBuffer());
  if (bytes.byteLength > MAX_BODY_BYTES)
    return new Request(request.url, { method: request.method, headers: request.headers, body: bytes });
  try {
    const text = STRICT_UTF8.decode(bytes);
    return new Request(request.url, { method: request.method, headers: request.headers, body: text });
  } catch {
    const error = {
      jsonrpc: '2.0',
      error: { code: -32700, message: 'Parse error: the body is not valid UTF-8' },
      id: null,
    };
    return new Response(JSON.stringify(error), { status: 400, headers: { 'Content-Type': 'application/json' } });
  }
}

/**
 * One MCP request (stateless Streamable HTTP, JSON responses): the MCP token (401), the API key
 * the tools act with (401), then a new server and transport for this request only. GET (a
 * server-to-client event stream) and DELETE (end of a session) make no sense without sessions:
 * 405. Every answer carries the security headers and the request id.
 */
export async function handleMcpRequest(request: Request, runtime: McpRuntime, facts: RequestFacts): Promise<Response> {
  const { requestId } = facts;
  try {
    const { pathname } = new URL(request.url);
    if (pathname !== MCP_PATH)
      throw new ApiError('NOT_FOUND', `No route ${request.method} ${pathname}; the MCP endpoint is ${MCP_PATH}.`);
    if (request.method !== 'POST') {
      const refusal = new ApiError(
        'METHOD_NOT_ALLOWED',
        'The MCP endpoint is stateless: POST JSON-RPC messages to it.',
        { allowed: ['POST'] },
      );
      return toResponse(errorResponse(refusal, requestId), requestId, { Allow: 'POST' });
    }
    const principal = await authenticateCaller(request, runtime);
    noteScope({ principalKind: principal.kind, organizationId: principal.organizationId });
    const decoded = await withUtf8Body(request);
    if (decoded instanceof Response) return withHeaders(decoded, requestId);
    const server = createMcpServer(runtime, { principal, requestId, sourceIp: facts.sourceIp });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      maxRequestBodySize: MAX_BODY_BYTES,
    });
    const send = transport.send.bind(transport);
    transport.send = (message, options) => send(withoutErrorPrefix(message), options);
    try {
      await server.connect(transport);
      return withHeaders(await transport.handleRequest(decoded), requestId);
    } finally {
      await server.close();
    }
  } catch (error) {
    if (error instanceof ApiError) {
      return toResponse(
        errorResponse(error, requestId),
        requestId,
        error.status === 401 ? { 'WWW-Authenticate': 'Bearer realm="allowance-mcp"' } : {},
      );
    }
    log.error('unexpected error', error);
    return toResponse(internalErrorResponse(requestId), requestId);
  }
}
