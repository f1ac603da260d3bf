import { randomUUID } from 'node:crypto';
import { lambdaContext } from './lambda-context.js';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { MAX_BODY_BYTES, payloadTooLarge } from '../../shared/edge/body-limit.js';
import { errorResponse, type HttpResponse } from '../../shared/http/responses.js';
import { FALLBACK_ROUTE, matchRoute, routeKeyOf, timeoutOf, type FunctionGroup } from '../../shared/http/routes.js';
import { MCP_FUNCTION } from '../../shared/mcp/function.js';
import { CARD_NETWORK_FUNCTION } from '../../shared/card-network/function.js';
import { HOSTED_FUNCTION } from '../../shared/hosted/function.js';
import { DASHBOARD_FUNCTION } from '../../shared/dashboard/function.js';

type LambdaHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<HttpResponse>;

/**
 * The functions behind a Lambda function URL in AWS (functions/mcp, functions/card-network),
 * served here at their path next to the API, with the event their function URL would send.
 */
const FUNCTION_URL_ENDPOINTS = [MCP_FUNCTION, CARD_NETWORK_FUNCTION] as const;
const LOCAL_MEMORY_MB = 512;

/** A function group, a function behind a function URL, the hosted pages' or the dashboard's function. */
type LocalFunction =
  | FunctionGroup
  | (typeof FUNCTION_URL_ENDPOINTS)[number]['name']
  | typeof HOSTED_FUNCTION.name
  | typeof DASHBOARD_FUNCTION.name;

/** The Lambda handler of a function, loaded on first use like a cold start (same entry file as CDK's). */
const loadGroupHandler = async (group: LocalFunction): Promise<LambdaHandler> =>
  (
    (await import(/* @vite-ignore */ new URL(`../../functions/${group}/handler.ts`, import.meta.url).href)) as {
      handler: LambdaHandler;
    }
  ).handler;

/**
 * A body over MAX_BODY_BYTES is read to its end without being kept (so the client, still sending,
 * gets the 413 answer instead of a reset connection), up to this much; beyond it the connection is
 * closed right after the answer.
 */
export const MAX_DRAINED_BYTES = 10 * MAX_BODY_BYTES;

/**
 * Serves the route table through the same handlers API Gateway invokes: each request becomes an
 * API Gateway v2 (HTTP API, payload 2.0) event with the same route key.
 */
export function createLocalServer(): Server {
  const loaded = new Map<LocalFunction, Promise<LambdaHandler>>();
  const handlerOf = (group: LocalFunction) => {
    let handler = loaded.get(group);
    if (!handler) {
      handler = loadGroupHandler(group);
      loaded.set(group, handler);
    }
    return handler;
  };

  const server = createServer((req, res) => {
    void serve(req, res, handlerOf).catch((error: unknown) => {
      console.error('local server failure', error);
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 'INTERNAL_ERROR', message: 'local server failure' } }));
    });
  });
  // Node closes an idle keep-alive connection after 5 s, and a client (fetch) that reuses it at that
  // moment reads ECONNRESET: under load the client's 1 s margin is not enough. API Gateway keeps
  // connections far longer; so does the local run.
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 1_000;
  return server;
}

const KEEP_ALIVE_MS = 65_000;

async function serve(
  req: IncomingMessage,
  res: ServerResponse,
  handlerOf: (group: LocalFunction) => Promise<LambdaHandler>,
) {
  const body = await readBody(req);
  if (body === TOO_LARGE) {
    // decisions.md section 9: 413 with the error envelope and the security headers, as every answer.
    const requestId = randomUUID();
    const response = errorResponse(payloadTooLarge(), requestId);
    const draining = !req.complete;
    res.writeHead(response.statusCode, {
      ...response.headers,
      'X-Request-Id': requestId,
      ...(draining ? { Connection: 'close' } : {}),
    });
    res.end(response.body, () => {
      if (draining) req.destroy();
    });
    return;
  }
  const url = new URL(req.url ?? '/', 'http://localhost');
  const method = (req.method ?? 'GET').toUpperCase();
  const endpoint = FUNCTION_URL_ENDPOINTS.find((candidate) => candidate.path === url.pathname);
  if (endpoint) {
    // The MCP endpoint, the card network endpoint: the function's own handler, with the event its function URL would send.
    const event = toEvent(req, url, method, FALLBACK_ROUTE.routeKey, undefined, body);
    const endpointHandler = await handlerOf(endpoint.name);
    const memoryMb = 'memoryMb' in endpoint ? endpoint.memoryMb : LOCAL_MEMORY_MB;
    send(
      res,
      await endpointHandler(
        event,
        lambdaContext({
          requestId: event.requestContext.requestId,
          functionName: `allowance-local-${endpoint.name}`,
          timeoutMs: endpoint.timeoutS * 1000,
          memoryMb,
        }),
      ),
    );
    return;
  }
  if (url.pathname.startsWith(`${HOSTED_FUNCTION.pathPrefix}/`)) {
    // The hosted pages: the HTTP API's `ANY /hosted/{proxy+}` route, with its greedy path parameter.
    const routeKey = `ANY ${HOSTED_FUNCTION.routePath}`;
    const proxy = url.pathname.slice(HOSTED_FUNCTION.pathPrefix.length + 1);
    const event = toEvent(req, url, method, routeKey, { proxy }, body);
    const hostedHandler = await handlerOf(HOSTED_FUNCTION.name);
    send(
      res,
      await hostedHandler(
        event,
        lambdaContext({
          requestId: event.requestContext.requestId,
          functionName: `allowance-local-${HOSTED_FUNCTION.name}`,
          timeoutMs: HOSTED_FUNCTION.timeoutS * 1000,
          memoryMb: LOCAL_MEMORY_MB,
        }),
      ),
    );
    return;
  }
  const dashboard = DASHBOARD_FUNCTION.pathPrefix;
  if (url.pathname === dashboard || url.pathname.startsWith(`${dashboard}/`)) {
    // The dashboard: the HTTP API's `ANY /dashboard` and `ANY /dashboard/{proxy+}` routes.
    const [rootPath, greedyPath] = DASHBOARD_FUNCTION.routePaths;
    const proxy = url.pathname.slice(dashboard.length + 1);
    const event =
      url.pathname === dashboard
        ? toEvent(req, url, method, `ANY ${rootPath}`, undefined, body)
        : toEvent(req, url, method, `ANY ${greedyPath}`, { proxy }, body);
    const dashboardHandler = await handlerOf(DASHBOARD_FUNCTION.name);
    send(
      res,
      await dashboardHandler(
        event,
        lambdaContext({
          requestId: event.requestContext.requestId,
          functionName: `allowance-local-${DASHBOARD_FUNCTION.name}`,
          timeoutMs: DASHBOARD_FUNCTION.timeoutS * 1000,
          memoryMb: DASHBOARD_FUNCTION.memoryMb,
        }),
      ),
    );
    return;
  }
  const match = matchRoute(method, url.pathname);
  const routeKey = match.kind === 'matched' ? routeKeyOf(match.route) : FALLBACK_ROUTE.routeKey;
  const group = match.kind === 'matched' ? match.route.group : FALLBACK_ROUTE.group;
  const event = toEvent(req, url, method, routeKey, match.kind === 'matched' ? match.pathParameters : undefined, body);
  const handler = await handlerOf(group);
  send(
    res,
    await handler(
      event,
      lambdaContext({
        requestId: event.requestContext.requestId,
        functionName: `allowance-local-${group}`,
        timeoutMs: timeoutOf(group) * 1000,
        memoryMb: LOCAL_MEMORY_MB,
      }),
    ),
  );
}

/** The function's answer as API Gateway sends it: a base64 body (compressed) goes out as its bytes. */
function send(res: ServerResponse, response: HttpResponse) {
  res.writeHead(response.statusCode, {
    ...response.headers,
    ...(response.cookies && response.cookies.length > 0 ? { 'Set-Cookie': response.cookies } : {}),
  });
  res.end(response.isBase64Encoded ? Buffer.from(response.body, 'base64') : response.body);
}

const TOO_LARGE = Symbol('request body too large');

/** The body's bytes as received; TOO_LARGE once it passes MAX_BODY_BYTES (nothing beyond that is kept). */
function readBody(req: IncomingMessage): Promise<Buffer | undefined | typeof TOO_LARGE> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = Number.isFinite(declared) && declared > MAX_DRAINED_BYTES;
    if (tooLarge) {
      // Declared far beyond the limit: answer now, do not read it.
      resolve(TOO_LARGE);
      return;
    }
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES && !tooLarge) {
        tooLarge = true;
        chunks.length = 0;
      }
      if (tooLarge) {
        if (size > MAX_DRAINED_BYTES) resolve(TOO_LARGE);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(tooLarge ? TOO_LARGE : chunks.length > 0 ? Buffer.concat(chunks) : undefined));
    req.on('error', reject);
  });
}

function toEvent(
  req: IncomingMessage,
  url: URL,
  method: string,
  routeKey: string,
  pathParameters: Record<string, string> | undefined,
  body: Buffer | undefined,
): APIGatewayProxyEventV2 {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
  }
  // API Gateway's payload 2.0 moves the Cookie header into `cookies`, one entry per cookie.
  const cookies = headers.cookie
    ?.split(';')
    .map((cookie) => cookie.trim())
    .filter((cookie) => cookie.length > 0);
  delete headers.cookie;
  const query: Record<string, string> = {};
  url.searchParams.forEach((value, name) => {
    query[name] = name in query ? `${query[name]},${value}` : value;
  });
  const now = new Date();
  return {
    version: '2.0',
    routeKey,
    rawPath: url.pathname,
    rawQueryString: url.search.replace(/^\?/, ''),
    headers,
    ...(cookies && cookies.length > 0 ? { cookies } : {}),
    ...(Object.keys(query).length > 0 ? { queryStringParameters: query } : {}),
    ...(pathParameters && Object.keys(pathParameters).length > 0 ? { pathParameters } : {}),
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'localhost',
      http: {
        method,
        path: url.pathname,
        protocol: 'HTTP/1.1',
        sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey,
      stage: '$default',
      time: now.toISOString(),
      timeEpoch: now.getTime(),
    },
    // The bytes as received, base64 as API Gateway and function URLs send a binary body: nothing is
    // decoded here, so the functions' strict UTF-8 check sees what the client sent.
    ...(body === undefined ? { isBase64Encoded: false } : { body: body.toString('base64'), isBase64Encoded: true }),
  };
}
