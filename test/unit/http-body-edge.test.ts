import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../shared/domain/clock.js';
import type { ApiKey } from '../../shared/domain/types.js';
import { ApiError } from '../../shared/domain/errors.js';
import { MAX_BODY_BYTES } from '../../shared/edge/body-limit.js';
import { createHttpHandler, type HttpRuntime } from '../../shared/http/middleware.js';
import { SECURITY_HEADERS } from '../../shared/http/security-headers.js';
import { defineGroup, operation } from '../../shared/operations/define.js';
import { issueKey } from '../../shared/auth/api-key-format.js';
import { note } from '../../shared/operations/fields.js';
import * as z from 'zod/mini';

/**
 * The HTTP edge as a function runs it (no local server in front): bodies over 1 MB and bodies that
 * are not JSON objects never reach an operation (decisions.md section 9).
 */
const runs: unknown[] = [];
/** Thrown by the operation when set (an error the service would throw). */
let nextError: Error | undefined;
const op = operation<Record<string, never>>();
const GROUP = defineGroup<Record<string, never>>()('approvals', {}, [
  op({
    name: 'decide',
    summary: 'Decide something',
    description: 'A test operation whose body fields are all optional.',
    access: 'key',
    permission: 'payments:read',
    http: { method: 'POST', path: '/v1/test/{id}/decide', status: 200 },
    params: { id: 'Id.' },
    body: () => z.strictObject({ note: note('A note.') }),
    output: 'openApiDocumentView',
    errors: [],
    run: async ({ body }) => {
      if (nextError) throw nextError;
      runs.push(body);
      return { ok: true };
    },
  }),
]);

const issued = issueKey('SANDBOX');
const raw = issued.raw;
const apiKey: ApiKey = {
  id: 'key_test',
  hash: issued.hash,
  name: 'k',
  prefix: issued.prefix,
  last4: issued.last4,
  organizationId: 'org_test',
  environment: 'SANDBOX',
  permissions: ['payments:read'],
  walletId: null,
  status: 'ACTIVE',
  createdAt: '2026-11-22T00:00:00.000Z',
  lastUsedAt: '2026-11-22T10:00:00.000Z',
};
const runtime: HttpRuntime = {
  authKeys: {
    getApiKeyByHash: async (hash) => (hash === apiKey.hash ? apiKey : undefined),
    touchApiKey: async () => undefined,
  },
  clock: fixedClock(new Date('2026-11-22T10:00:30.000Z')),
  rateLimiter: () => ({ allowed: true, retryAfterS: 0 }),
  publicRateLimiter: () => ({ allowed: true, retryAfterS: 0 }),
  cursors: async () => ({ encode: () => '', decode: () => ({}) }),
};
const handler = createHttpHandler(
  GROUP,
  () => runtime,
  () => ({}),
);

function event(body: string | undefined, authorized = true): APIGatewayProxyEventV2 {
  return {
    version: '2.0',
    routeKey: 'POST /v1/test/{id}/decide',
    rawPath: '/v1/test/x1/decide',
    rawQueryString: '',
    headers: { 'content-type': 'application/json', ...(authorized ? { authorization: `Bearer ${raw}` } : {}) },
    pathParameters: { id: 'x1' },
    requestContext: {
      http: {
        method: 'POST',
        path: '/v1/test/x1/decide',
        protocol: 'HTTP/1.1',
        sourceIp: '203.0.113.5',
        userAgent: 't',
      },
      requestId: 'req-1',
    } as APIGatewayProxyEventV2['requestContext'],
    ...(body === undefined ? {} : { body }),
    isBase64Encoded: false,
  };
}

const call = (body: string | undefined, authorized = true) => handler(event(body, authorized), {} as Context);

describe('the HTTP edge refuses bodies before any operation runs', () => {
  it('answers 413 PAYLOAD_TOO_LARGE to a body over 1 MB, with the envelope, the request id and the security headers, before authentication', async () => {
    runs.length = 0;
    const response = await call(JSON.stringify({ note: 'x'.repeat(MAX_BODY_BYTES) }), false);

    expect(response.statusCode).toBe(413);
    expect(JSON.parse(response.body)).toMatchObject({ error: { code: 'PAYLOAD_TOO_LARGE', requestId: 'req-1' } });
    expect(response.headers).toMatchObject(SECURITY_HEADERS);
    expect(response.headers['X-Request-Id']).toBe('req-1');
    expect(runs).toEqual([]);
  });

  it('answers 400 VALIDATION_ERROR (field body) to null, an array, a string, a number or a boolean, and runs nothing', async () => {
    runs.length = 0;
    for (const body of ['null', '[]', '[{"note":"x"}]', '"x"', '0', 'false']) {
      const response = await call(body);
      expect(response.statusCode, body).toBe(400);
      expect(JSON.parse(response.body).error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'body' } });
    }
    expect(runs).toEqual([]);
  });

  it('runs the operation with {} for an absent or empty body, and with the object sent', async () => {
    runs.length = 0;
    expect((await call(undefined)).statusCode).toBe(200);
    expect((await call('')).statusCode).toBe(200);
    expect((await call('{"note":"fine"}')).statusCode).toBe(200);
    expect(runs).toEqual([{}, {}, { note: 'fine' }]);
  });
});

describe('the HTTP edge reads a body as API Gateway sends it', () => {
  const base64 = (bytes: Buffer): APIGatewayProxyEventV2 => ({
    ...event(undefined),
    body: bytes.toString('base64'),
    isBase64Encoded: true,
  });

  it('answers 400 VALIDATION_ERROR (field body) to a base64 body that is not valid UTF-8, and runs nothing', async () => {
    runs.length = 0;
    const bytes = Buffer.concat([Buffer.from('{"note":"caf'), Buffer.from([0xc3]), Buffer.from('"}')]);

    const response = await handler(base64(bytes), {} as Context);

    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body).error).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'body: is not valid UTF-8',
      details: { field: 'body' },
    });
    expect(runs).toEqual([]);
  });

  it('runs the operation with a base64 body in valid UTF-8', async () => {
    runs.length = 0;

    const response = await handler(base64(Buffer.from('{"note":"café"}', 'utf8')), {} as Context);

    expect(response.statusCode).toBe(200);
    expect(runs).toEqual([{ note: 'café' }]);
  });
});

describe('the HTTP edge says when to retry a retryable conflict', () => {
  it('answers 409 IDEMPOTENCY_KEY_IN_USE with a Retry-After header and details.retryAfter', async () => {
    nextError = new ApiError(
      'IDEMPOTENCY_KEY_IN_USE',
      'A request with this idempotency key is still being processed; retry shortly.',
      { idempotencyKey: 'k1' },
    );

    const response = await call('{}').finally(() => (nextError = undefined));

    expect(response.statusCode).toBe(409);
    expect(response.headers['Retry-After']).toBe('1');
    expect(JSON.parse(response.body).error).toMatchObject({
      code: 'IDEMPOTENCY_KEY_IN_USE',
      details: { idempotencyKey: 'k1', retryAfter: 1 },
    });
  });
});
