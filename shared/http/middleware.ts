import middy, { type MiddlewareObj } from '@middy/core';
import { isJsonObject } from '../domain/json.js';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { authenticate, LAST_USED_WRITE_INTERVAL_MS } from '../auth/authenticate.js';
import type { Clock } from '../domain/clock.js';
import { ApiError, validationError } from '../domain/errors.js';
import { MAX_USER_AGENT_LENGTH, type Principal, type RequestContext } from '../domain/tenancy.js';
import type { ApiKeyAuthReader } from '../domain/api-keys/ports.js';
import { authorize } from '../operations/authorize.js';
import type { Cursors, Operation, OperationGroup } from '../operations/define.js';
import { invoke } from '../operations/invoke.js';
import { noRoute, routeKeyOf } from '../operations/paths.js';
import { errorResponse, internalErrorResponse, jsonResponse, type HttpResponse } from './responses.js';
import { MAX_BODY_BYTES, payloadTooLarge } from '../edge/body-limit.js';
import { parseWith } from '../edge/parse.js';
import type { RateLimiter } from '../edge/rate-limit.js';
import { compressed } from './compression.js';
import { bodyTextOf, requireJsonMediaType } from './request-body.js';
import { SECURITY_HEADERS } from './security-headers.js';
import { observedEdge } from '../observability/invocation.js';
import { log } from '../observability/log.js';
import { noteScope } from '../observability/scope.js';

/** What the HTTP edge needs from the composition root (shared/runtime/core.ts provides it). */
export interface HttpRuntime {
  authKeys: ApiKeyAuthReader;
  clock: Clock;
  rateLimiter: RateLimiter;
  publicRateLimiter: RateLimiter;
  cursors(): Promise<Cursors>;
}

interface RequestState {
  requestId: string;
  operation?: Operation;
  principal?: Principal;
  body?: unknown;
  query?: unknown;
}

/** The API Gateway v2 event, with what the middleware learned about the request. */
export type AllowanceEvent = APIGatewayProxyEventV2 & { allowance?: RequestState };
type Request = middy.Request<AllowanceEvent, HttpResponse, Error, Context>;
type Middleware = MiddlewareObj<AllowanceEvent, HttpResponse, Error, Context>;

function stateOf(request: Request): RequestState {
  request.event.allowance ??= { requestId: requestIdOf(request.event) };
  return request.event.allowance;
}

// 1. Security headers on every response, including errors and unknown routes.
const securityHeaders: Middleware = {
  after: (request) => applyHeaders(request),
  onError: (request) => applyHeaders(request),
};
function applyHeaders(request: Request) {
  if (request.response) {
    request.response.headers = {
      ...request.response.headers,
      ...SECURITY_HEADERS,
      'X-Request-Id': stateOf(request).requestId,
    };
  }
}

// 0. Outermost: the final answer (success or error envelope, with its headers) compressed for clients that accept it.
const compression: Middleware = {
  after: (request) => compress(request),
  onError: (request) => compress(request),
};
function compress(request: Request) {
  if (request.response) request.response = compressed(request.response, headerOf(request.event, 'accept-encoding'));
}

// Last in effect: every error becomes the envelope; only ApiErrors show their message.
const errorEnvelope: Middleware = {
  onError: (request) => {
    const { requestId } = stateOf(request);
    const error = request.error;
    if (error instanceof ApiError) {
      request.response = errorResponse(error, requestId);
      return;
    }
    log.error('unexpected error', error);
    request.response = internalErrorResponse(requestId);
  },
};

function requestIdOf(event: APIGatewayProxyEventV2): string {
  return event.requestContext?.requestId ?? 'unknown';
}

/** Path parameters are ids (prefix_ + base62) or merchant domains. */
const PATH_PARAMETER = /^[A-Za-z0-9_.-]{1,253}$/;

// 2. Route resolution among the group's own operations (the body is parsed after authentication).
function routing(operations: ReadonlyMap<string, Operation>): Middleware {
  return {
    before: (request) => {
      const op = operations.get(request.event.routeKey);
      if (op) {
        stateOf(request).operation = op;
        noteScope({ operation: op.name });
      }
    },
  };
}

/** The body as JSON (after its media type and its UTF-8 are checked), undefined when there is none. */
function parseBody(event: APIGatewayProxyEventV2): unknown {
  if (event.body === undefined || event.body === null || event.body === '') return undefined;
  requireJsonMediaType(headerOf(event, 'content-type'));
  const text = bodyTextOf(event);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw validationError('body', 'is not valid JSON');
  }
}

function bodyBytesOf(event: APIGatewayProxyEventV2): number {
  if (event.body === undefined || event.body === null) return 0;
  return Buffer.byteLength(event.body, event.isBase64Encoded ? 'base64' : 'utf8');
}

// 2b. Body size, before anything reads the body (the local server refuses larger bodies while reading them).
const payloadLimit: Middleware = {
  before: (request) => {
    if (bodyBytesOf(request.event) > MAX_BODY_BYTES) throw payloadTooLarge();
  },
};

/**
 * The body an operation's schema sees (decisions.md section 9): an absent body is `{}` (valid
 * where every field is optional); a body that is not a JSON object (`null`, an array, a string,
 * a number) is a VALIDATION_ERROR, so the operation never runs.
 */
function bodyForSchema(body: unknown): Record<string, unknown> {
  if (body === undefined) return {};
  if (!isJsonObject(body)) throw validationError('body', 'must be a JSON object');
  return body;
}

// 3. Authentication and permission (order of checks: decisions.md section 1).
function authentication(getRuntime: () => HttpRuntime): Middleware {
  return {
    before: async (request) => {
      const runtime = getRuntime();
      const state = stateOf(request);
      const op = state.operation;
      if (!op || op.access === 'public') return;
      const now = runtime.clock.now();
      const { principal, apiKey } = await authenticate(runtime.authKeys, headerOf(request.event, 'authorization'), now);
      noteScope({ principalKind: principal.kind, organizationId: principal.organizationId });
      authorize(op, principal);
      state.principal = principal;
      const lastUsed = apiKey.lastUsedAt ? new Date(apiKey.lastUsedAt).getTime() : 0;
      if (now.getTime() - lastUsed >= LAST_USED_WRITE_INTERVAL_MS) {
        await runtime.authKeys.touchApiKey(apiKey.hash, now, LAST_USED_WRITE_INTERVAL_MS);
      }
    },
  };
}

// 4. Rate limits per key; public routes per client IP.
function rateLimiting(getRuntime: () => HttpRuntime): Middleware {
  return {
    before: (request) => {
      const runtime = getRuntime();
      const state = stateOf(request);
      if (!state.operation) return;
      const decision = state.principal
        ? runtime.rateLimiter(`key:${state.principal.keyId}`)
        : runtime.publicRateLimiter(`ip:${sourceIpOf(request.event)}`);
      if (!decision.allowed) {
        throw new ApiError('RATE_LIMIT_EXCEEDED', 'Too many requests; retry after the given number of seconds.', {
          retryAfter: decision.retryAfterS,
        });
      }
    },
  };
}

// 5. Validation with zod: strict bodies, field names in the error.
function validation(): Middleware {
  return {
    before: (request) => {
      const state = stateOf(request);
      const op = state.operation;
      if (!op) return;
      // Ids are short tokens; anything else can not name a resource (and must not reach a table key).
      const params = Object.values(request.event.pathParameters ?? {});
      if (params.some((value) => value === undefined || !PATH_PARAMETER.test(value)))
        throw new ApiError('NOT_FOUND', 'No such resource.');
      // Parsed only now: a bad body never hides an authentication or permission error.
      state.body = parseBody(request.event);
      state.body = op.body ? parseWith(op.body, bodyForSchema(state.body), '') : state.body;
      if (!op.body && state.body !== undefined && !isEmptyObject(state.body)) {
        throw validationError('body', 'this endpoint takes no request body');
      }
      state.query = op.query ? parseWith(op.query, request.event.queryStringParameters ?? {}, '') : {};
    },
  };
}

function isEmptyObject(value: unknown): boolean {
  return isJsonObject(value) && Object.keys(value).length === 0;
}

export function headerOf(event: APIGatewayProxyEventV2, name: string): string | undefined {
  const headers = event.headers ?? {};
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  return key ? headers[key] : undefined;
}

function sourceIpOf(event: APIGatewayProxyEventV2): string {
  return event.requestContext?.http?.sourceIp ?? 'unknown';
}

export interface HttpHandlerOptions {
  /** Answers requests that match no operation of the group (the catch-all route). */
  fallback?: (method: string, path: string) => never;
}

/**
 * The handler of one function group: middleware in fixed order (headers -> route -> body size ->
 * auth -> rate limit -> validate -> operation -> error envelope -> compression), then the operation of the route key.
 * The group's services are built on first use, from the runtime, by `createServices`. Observed
 * (shared/observability/invocation.ts): one `request` log line per request, metrics written once.
 */
export function createHttpHandler<Services>(
  group: OperationGroup<Services>,
  getRuntime: () => HttpRuntime,
  createServices: () => Services,
  options: HttpHandlerOptions = {},
) {
  const operations = new Map(group.operations.map((op) => [routeKeyOf(op.http), op as Operation]));
  let services: Services | undefined;

  const handler = middy<AllowanceEvent, HttpResponse, Error, Context>()
    .use(compression)
    .use(securityHeaders)
    .use(errorEnvelope)
    .use(routing(operations))
    .use(payloadLimit)
    .use(authentication(getRuntime))
    .use(rateLimiting(getRuntime))
    .use(validation())
    .handler(async (event) => {
      const state = event.allowance ?? { requestId: requestIdOf(event) };
      const op = state.operation;
      if (!op) return fallbackResponse(event, options);
      services ??= createServices();
      const result = await invoke(op, {
        services,
        auth: contextOf(state, event),
        body: state.body,
        query: state.query,
        params: (event.pathParameters ?? {}) as Record<string, string>,
        idempotencyKeyHeader: headerOf(event, 'idempotency-key'),
        cursors: () => getRuntime().cursors(),
      });
      return jsonResponse(result.status, result.body, result.replayed ? { 'Idempotent-Replayed': 'true' } : {});
    });
  return observedEdge<AllowanceEvent, HttpResponse>((event, context) => handler(event, context));
}

function contextOf(state: RequestState, event: APIGatewayProxyEventV2): RequestContext {
  const principal = state.principal ?? ANONYMOUS;
  return {
    principal,
    actor: {
      actorType: state.principal ? 'API_KEY' : 'SYSTEM',
      actorId: principal.keyId,
      ipAddress: sourceIpOf(event),
    },
    requestId: state.requestId,
    userAgent: headerOf(event, 'user-agent')?.slice(0, MAX_USER_AGENT_LENGTH),
  };
}

const ANONYMOUS: Principal = {
  kind: 'ORGANIZATION',
  keyId: 'anonymous',
  organizationId: null,
  environment: null,
  permissions: [],
  walletId: null,
};

/** Unknown route (the $default route in AWS, or a path the local server does not know). */
function fallbackResponse(event: APIGatewayProxyEventV2, options: HttpHandlerOptions): never {
  const method = event.requestContext?.http?.method ?? 'GET';
  const path = event.requestContext?.http?.path ?? event.rawPath ?? '/';
  options.fallback?.(method, path);
  throw noRoute(method, path);
}
