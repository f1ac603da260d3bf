import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { compressed } from '../http/compression.js';
import type { HttpResponse } from '../http/responses.js';
import { handleMcpRequest } from './http.js';
import { MCP_FUNCTION } from './function.js';
import { observedEdge } from '../observability/invocation.js';
import type { McpRuntime } from './server.js';

/**
 * A Lambda function URL (payload format 2.0, the shape of API Gateway HTTP API events) carrying
 * MCP: the event becomes a web `Request`, the SDK's web-standard transport answers a `Response`,
 * which becomes the function's result. No web framework. The local server builds the same events.
 */
export function requestOf(event: APIGatewayProxyEventV2): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(event.headers ?? {})) if (value !== undefined) headers.set(name, value);
  const method = event.requestContext?.http?.method ?? 'GET';
  const protocol = headers.get('x-forwarded-proto') ?? 'https';
  const host = event.requestContext?.domainName ?? headers.get('host') ?? 'localhost';
  const url = `${protocol}://${host}${event.rawPath ?? '/'}${event.rawQueryString ? `?${event.rawQueryString}` : ''}`;
  const hasBody = method !== 'GET' && method !== 'HEAD' && event.body !== undefined && event.body !== null;
  const body = hasBody ? (event.isBase64Encoded ? Buffer.from(event.body!, 'base64') : event.body!) : undefined;
  return new Request(url, { method, headers, ...(body === undefined ? {} : { body }) });
}

/** The function's result, compressed for a client that accepts it (tools/list is about 260 KB). */
export async function resultOf(response: Response, acceptEncoding?: string): Promise<HttpResponse> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return compressed({ statusCode: response.status, headers, body: await response.text() }, acceptEncoding);
}

/** The Lambda handler of the MCP function; the runtime is built on first use (cold start). */
export function createMcpFunctionUrlHandler(getRuntime: () => McpRuntime) {
  let runtime: McpRuntime | undefined;
  // Observed as every edge: one `request` line (route `POST /mcp`), metrics written once.
  return observedEdge(async (event: APIGatewayProxyEventV2): Promise<HttpResponse> => {
    runtime ??= getRuntime();
    const facts = {
      requestId: event.requestContext?.requestId ?? 'unknown',
      sourceIp: event.requestContext?.http?.sourceIp ?? 'unknown',
    };
    const acceptEncoding = Object.entries(event.headers ?? {}).find(
      ([name]) => name.toLowerCase() === 'accept-encoding',
    )?.[1];
    return resultOf(await handleMcpRequest(requestOf(event), runtime, facts), acceptEncoding);
  }, routeOfMcp);
}

const routeOfMcp = (event: APIGatewayProxyEventV2) =>
  `${event.requestContext?.http?.method ?? 'POST'} ${MCP_FUNCTION.path}`;
