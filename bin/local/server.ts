import { randomUUID } from 'node:crypto';
import { lambdaContext } from './lambda-context.js';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { FALLBACK_ROUTE, matchRoute, routeKeyOf, timeoutOf, type FunctionGroup } from '../../shared/http/routes.js';
import type { HttpResponse } from '../../shared/http/responses.js';

type LambdaHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<HttpResponse>;

/** The Lambda handler of a function group, loaded on first use like a cold start (same entry file as CDK's). */
const loadGroupHandler = async (group: FunctionGroup): Promise<LambdaHandler> =>
  ((await import(/* @vite-ignore */ new URL(`../../functions/${group}/handler.ts`, import.meta.url).href)) as { handler: LambdaHandler }).handler;

export const MAX_BODY_BYTES = 1_000_000;

/**
 * Serves the route table through the same handlers API Gateway invokes: each request becomes an
 * API Gateway v2 (HTTP API, payload 2.0) event with the same route key.
 */
export function createLocalServer(): Server {
  const loaded = new Map<FunctionGroup, Promise<LambdaHandler>>();
  const handlerOf = (group: FunctionGroup) => {
    let handler = loaded.get(group);
    if (!handler) {
      handler = loadGroupHandler(group);
      loaded.set(group, handler);
    }
    return handler;
  };

  return createServer((req, res) => {
    void serve(req, res, handlerOf).catch((error: unknown) => {
      console.error('local server failure', error);
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 'INTERNAL_ERROR', message: 'local server failure' } }));
    });
  });
}

async function serve(req: IncomingMessage, res: ServerResponse, handlerOf: (group: FunctionGroup) => Promise<LambdaHandler>) {
  const body = await readBody(req);
  const url = new URL(req.url ?? '/', 'http://localhost');
  const method = (req.method ?? 'GET').toUpperCase();
  const match = matchRoute(method, url.pathname);
  const routeKey = match.kind === 'matched' ? routeKeyOf(match.route) : FALLBACK_ROUTE.routeKey;
  const group = match.kind === 'matched' ? match.route.group : FALLBACK_ROUTE.group;
  const event = toEvent(req, url, method, routeKey, match.kind === 'matched' ? match.pathParameters : undefined, body);
  const handler = await handlerOf(group);
  const response = await handler(event, lambdaContext({ requestId: event.requestContext.requestId, functionName: `allowance-local-${group}`, timeoutMs: timeoutOf(group) * 1000, memoryMb: 512 }));
  res.writeHead(response.statusCode, response.headers);
  res.end(response.body);
}

function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error('request body too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(chunks.length > 0 ? Buffer.concat(chunks).toString('utf8') : undefined));
    req.on('error', reject);
  });
}

function toEvent(
  req: IncomingMessage,
  url: URL,
  method: string,
  routeKey: string,
  pathParameters: Record<string, string> | undefined,
  body: string | undefined,
): APIGatewayProxyEventV2 {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
  }
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
    ...(Object.keys(query).length > 0 ? { queryStringParameters: query } : {}),
    ...(pathParameters && Object.keys(pathParameters).length > 0 ? { pathParameters } : {}),
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'localhost',
      http: { method, path: url.pathname, protocol: 'HTTP/1.1', sourceIp: req.socket.remoteAddress ?? '127.0.0.1', userAgent: headers['user-agent'] ?? '' },
      requestId: randomUUID(),
      routeKey,
      stage: '$default',
      time: now.toISOString(),
      timeEpoch: now.getTime(),
    },
    ...(body === undefined ? {} : { body }),
    isBase64Encoded: false,
  };
}
