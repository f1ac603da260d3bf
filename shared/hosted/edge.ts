import middy, { type MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { ApiError } from '../domain/errors.js';
import type { RateLimiter } from '../edge/rate-limit.js';
import { compressed } from '../http/compression.js';
import { bodyTextOf } from '../http/request-body.js';
import type { HttpResponse } from '../http/responses.js';
import { assetAt } from './assets.js';
import { hostedOperationsOf, type HostedCatalog } from './catalog-port.js';
import { formFields, MAX_FORM_BYTES } from './forms.js';
import { HOSTED_FUNCTION } from './function.js';
import { assetResponse, PAGE_HEADERS } from './headers.js';
import { refusal, type PageAnswer } from './answers.js';
import { servePage } from './page-routes.js';
import { isCrossSite } from './same-origin.js';
import { observedEdge } from '../observability/invocation.js';
import { log } from '../observability/log.js';

/** What the pages' edge needs from the composition root: the per-IP limiter of public routes. */
export interface HostedRuntime {
  publicRateLimiter: RateLimiter;
}

type Request = middy.Request<APIGatewayProxyEventV2, HttpResponse, Error, Context>;

const requestIdOf = (event: APIGatewayProxyEventV2) => event.requestContext?.requestId ?? 'unknown';
const sourceIpOf = (event: APIGatewayProxyEventV2) => event.requestContext?.http?.sourceIp ?? 'unknown';

export function headerOf(event: APIGatewayProxyEventV2, name: string): string | undefined {
  const headers = event.headers ?? {};
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  return key ? headers[key] : undefined;
}

/** A page answer as the HTTP response: the page headers on every answer, the Location of a redirect. */
function toResponse(answer: PageAnswer, requestId: string, extra: Record<string, string> = {}): HttpResponse {
  const headers: Record<string, string> = { ...PAGE_HEADERS, 'X-Request-Id': requestId, ...extra };
  if ('location' in answer) return { statusCode: 303, headers: { ...headers, Location: answer.location }, body: '' };
  return { statusCode: answer.status, headers, body: answer.html };
}

// Last in effect: an error becomes a page (never a stack trace); only our refusals say why.
const errorPage: MiddlewareObj<APIGatewayProxyEventV2, HttpResponse, Error, Context> = {
  onError: (request: Request) => {
    const requestId = requestIdOf(request.event);
    const error = request.error;
    if (error instanceof ApiError && error.status < 500) {
      const answer = refusal(error.code === 'RATE_LIMIT_EXCEEDED' ? 'rate-limited' : 'bad-request');
      const retry = error.details?.retryAfter;
      request.response = toResponse(
        { status: error.status, html: 'html' in answer ? answer.html : '' },
        requestId,
        retry === undefined ? {} : { 'Retry-After': String(retry) },
      );
      return;
    }
    log.error('unexpected error', error);
    request.response = toResponse(refusal('failure'), requestId);
  },
};

// Outermost: pages are compressed for browsers that accept it, as the API's answers are.
const compression: MiddlewareObj<APIGatewayProxyEventV2, HttpResponse, Error, Context> = {
  after: (request: Request) => compress(request),
  onError: (request: Request) => compress(request),
};
function compress(request: Request) {
  if (request.response) request.response = compressed(request.response, headerOf(request.event, 'accept-encoding'));
}

/**
 * The hosted pages' function (`ANY /hosted/{proxy+}`): assets, then the per-IP rate limit, the
 * same-origin check of form posts and their size, then the page, which calls the catalog's public
 * operations through `invoke` (catalog-port.ts). Every answer carries PAGE_HEADERS.
 */
export function createHostedHandler(getRuntime: () => HostedRuntime, getCatalog: () => HostedCatalog) {
  let catalog: HostedCatalog | undefined;
  const handler = middy<APIGatewayProxyEventV2, HttpResponse, Error, Context>()
    .use(compression)
    .use(errorPage)
    .handler(async (event) => {
      const requestId = requestIdOf(event);
      const method = (event.requestContext?.http?.method ?? 'GET').toUpperCase();
      const fullPath = event.rawPath ?? event.requestContext?.http?.path ?? '/';
      const asset = method === 'GET' ? assetAt(fullPath) : undefined;
      if (asset) return assetResponse(asset, requestId);
      const decision = getRuntime().publicRateLimiter(`ip:${sourceIpOf(event)}`);
      if (!decision.allowed)
        return toResponse(refusal('rate-limited'), requestId, { 'Retry-After': String(decision.retryAfterS) });
      if (method === 'POST') {
        if (isCrossSite(headerOf(event, 'origin'), headerOf(event, 'sec-fetch-site'), headerOf(event, 'host')))
          return toResponse(refusal('cross-site'), requestId);
        if (bodyBytesOf(event) > MAX_FORM_BYTES) throw new ApiError('PAYLOAD_TOO_LARGE', 'The form is too large.');
      }
      catalog ??= getCatalog();
      const ops = hostedOperationsOf(catalog, { requestId, ipAddress: sourceIpOf(event) });
      const prefix = HOSTED_FUNCTION.pathPrefix;
      const path = fullPath.startsWith(`${prefix}/`) ? fullPath.slice(prefix.length) : '/';
      const answer = await servePage(ops, {
        method,
        path,
        query: event.queryStringParameters ?? {},
        form: () => formFields(headerOf(event, 'content-type'), bodyTextOf(event)),
      });
      return toResponse(answer, requestId);
    });
  return observedEdge<APIGatewayProxyEventV2, HttpResponse>((event, context) => handler(event, context));
}

function bodyBytesOf(event: APIGatewayProxyEventV2): number {
  if (event.body === undefined || event.body === null) return 0;
  return Buffer.byteLength(event.body, event.isBase64Encoded ? 'base64' : 'utf8');
}
