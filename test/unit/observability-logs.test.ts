import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { issueKey } from '../../shared/auth/api-key-format.js';
import { fixedClock } from '../../shared/domain/clock.js';
import type { ApiKey } from '../../shared/domain/types.js';
import { createHttpHandler, type HttpRuntime } from '../../shared/http/middleware.js';
import { createMcpFunctionUrlHandler } from '../../shared/mcp/function-url.js';
import type { McpRuntime } from '../../shared/mcp/server.js';
import { observedWorker } from '../../shared/observability/invocation.js';
import { log } from '../../shared/observability/log.js';
import { REDACTED, redactText } from '../../shared/observability/redact.js';
import { defineGroup, operation } from '../../shared/operations/define.js';
import { note } from '../../shared/operations/fields.js';
import { captureStreamsPerTest } from '../fixtures/stream-capture.js';

/**
 * Issue 26: no API key, webhook secret, card number, CVC, password, TOTP secret or session id ever
 * reaches a log line. Each secret kind is fed through every log path (the edge's request line and
 * its error line, a worker's failure, the MCP edge, the logger itself with secrets as attributes)
 * and the output (stdout, where Powertools writes) is searched for it.
 */
process.env.POWERTOOLS_LOG_LEVEL = 'DEBUG';

const apiKeyRaw = issueKey('SANDBOX').raw;
const liveKey = issueKey('PRODUCTION').raw;
const SECRETS = {
  apiKey: apiKeyRaw,
  liveKey,
  webhookSecret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  cardNumber: '4242424242424242',
  groupedCardNumber: '4000 0566 5566 5556',
  cvc: '8317',
  password: 'correct-Horse-battery-9',
  totpSecret: 'JBSWY3DPEHPK3PXPQZ7A',
  sessionToken: 'Zx9-Rq2sT4uV6wX8yA0bC2dE4fG6hJ8k',
  sessionId: 'ses_8Lm2Zq4Tr9Wb1XkPq3Ns5Vd7',
  mcpToken: 'mcp-token-3b1f7c9e5d2a4f60',
} as const;

/** A message a careless caller could write: every secret with a shape, in the text. */
const CARELESS_MESSAGE = [
  `key ${SECRETS.apiKey} and ${SECRETS.liveKey}`,
  `secret ${SECRETS.webhookSecret}`,
  `card ${SECRETS.cardNumber} / ${SECRETS.groupedCardNumber}`,
  `otpauth://totp/Allowance:a@b.test?secret=${SECRETS.totpSecret}&issuer=Allowance`,
  `session ${SECRETS.sessionId}`,
  `Authorization: Bearer ${SECRETS.mcpToken}`,
].join('; ');

/** Attributes a careless caller could pass: the shapeless secrets, named for what they are. */
const CARELESS_ATTRIBUTES = {
  cvc: SECRETS.cvc,
  password: SECRETS.password,
  totpSecret: SECRETS.totpSecret,
  session: SECRETS.sessionToken,
  cookie: `allowance_session=${SECRETS.sessionToken}`,
  card: { number: SECRETS.cardNumber, cvc: SECRETS.cvc },
  headers: { authorization: `Bearer ${SECRETS.apiKey}` },
  webhook: { secret: SECRETS.webhookSecret },
  newPassword: SECRETS.password,
  mcpToken: SECRETS.mcpToken,
};

function carelessError(): Error {
  const error = new Error(`failed: ${CARELESS_MESSAGE}`, { cause: new Error(`cause: ${CARELESS_MESSAGE}`) });
  Object.assign(error, { details: CARELESS_ATTRIBUTES });
  return error;
}

const streams = captureStreamsPerTest();

/** Every JSON line written since the test began. */
const lines = () => streams.jsonLines();

function expectNoSecret() {
  const text = streams.text();
  expect(text.length).toBeGreaterThan(0);
  for (const [kind, secret] of Object.entries(SECRETS)) {
    if (kind === 'cvc') expect(text, kind).not.toMatch(new RegExp(`["=:]${secret}\\b`));
    else expect(text, kind).not.toContain(secret);
  }
  // The grouped card number, its digits together or apart.
  expect(text).not.toContain(SECRETS.groupedCardNumber.replace(/ /g, ''));
}

// The HTTP edge of one group with one operation that fails in a careless way.
const op = operation<Record<string, never>>();
const GROUP = defineGroup<Record<string, never>>()('approvals', {}, [
  op({
    name: 'decide',
    summary: 'Decide something',
    description: 'A test operation that fails with secrets in its error.',
    access: 'key',
    permission: 'payments:read',
    http: { method: 'POST', path: '/v1/test/{id}/decide', status: 200 },
    params: { id: 'Id.' },
    body: () => z.strictObject({ note: note('A note.') }),
    output: 'openApiDocumentView',
    errors: [],
    run: async () => {
      throw carelessError();
    },
  }),
]);
const issued = issueKey('SANDBOX');
const apiKey: ApiKey = {
  id: 'key_test',
  hash: issued.hash,
  name: 'k',
  prefix: issued.prefix,
  last4: issued.last4,
  organizationId: 'org_logs',
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

function httpEvent(path: string, body: string, authorization: string): APIGatewayProxyEventV2 {
  return {
    version: '2.0',
    routeKey: 'POST /v1/test/{id}/decide',
    rawPath: path,
    rawQueryString: `password=${SECRETS.password}`,
    headers: {
      'content-type': 'application/json',
      authorization,
      cookie: `allowance_session=${SECRETS.sessionToken}`,
    },
    pathParameters: { id: 'x1' },
    requestContext: {
      http: { method: 'POST', path, protocol: 'HTTP/1.1', sourceIp: '203.0.113.5', userAgent: 't' },
      requestId: 'req-logs-1',
    } as APIGatewayProxyEventV2['requestContext'],
    body,
    isBase64Encoded: false,
  };
}

const lambdaContext = {
  awsRequestId: 'lambda-req-1',
  functionName: 'allowance-dev-approvals',
  memoryLimitInMB: '512',
  invokedFunctionArn: 'arn:aws:lambda:us-east-1:1:function:allowance-dev-approvals',
} as Context;

describe('the redaction guard', () => {
  it('cuts formatted secrets and Luhn-valid card numbers out of text, and leaves other numbers', () => {
    const redacted = redactText(CARELESS_MESSAGE);
    for (const secret of [SECRETS.apiKey, SECRETS.liveKey, SECRETS.webhookSecret, SECRETS.cardNumber])
      expect(redacted).not.toContain(secret);
    expect(redacted).not.toContain(SECRETS.groupedCardNumber);
    expect(redacted).not.toContain(SECRETS.totpSecret);
    expect(redacted).not.toContain(SECRETS.sessionId);
    expect(redacted).not.toContain(SECRETS.mcpToken);
    expect(redacted).toContain(REDACTED);
    // A millisecond timestamp and an amount are not card numbers (they fail the Luhn check or are too short).
    expect(redactText('at 1795849703940, 1234567890123 and 12.50')).toBe('at 1795849703940, 1234567890123 and 12.50');
  });
});

describe('every log path keeps secrets out of its lines', () => {
  it('the HTTP edge: the request line and the error line of a failure full of secrets', async () => {
    const handler = createHttpHandler(
      GROUP,
      () => runtime,
      () => ({}),
    );
    const body = JSON.stringify({ note: `pay with ${SECRETS.cardNumber} cvc ${SECRETS.cvc}` });
    const response = await handler(httpEvent('/v1/test/x1/decide', body, `Bearer ${issued.raw}`), lambdaContext);
    expect(response.statusCode).toBe(500);
    const [error, request] = lines();
    expect(error).toMatchObject({ level: 'ERROR', message: 'unexpected error', requestId: 'req-logs-1' });
    expect(request).toMatchObject({
      level: 'INFO',
      message: 'request',
      requestId: 'req-logs-1',
      correlationId: 'req-logs-1',
      route: 'POST /v1/test/{id}/decide',
      status: 500,
      principalKind: 'ORGANIZATION',
      organizationId: 'org_logs',
      cold_start: true,
      function_request_id: 'lambda-req-1',
      service: expect.any(String),
      timestamp: expect.any(String),
    });
    expect(typeof request!.durationMs).toBe('number');
    expectNoSecret();
    expect(streams.text()).not.toContain(issued.raw);
  });

  it('a worker: its failure, with the secrets in the error, its cause and its fields', async () => {
    const worker = observedWorker('webhook-delivery', async (_event: unknown, _context?: Context) => {
      log.warn('a careless warning', carelessError(), CARELESS_ATTRIBUTES);
      throw carelessError();
    });
    await expect(worker({}, lambdaContext)).rejects.toThrow();
    const [warning, failure] = lines();
    expect(warning).toMatchObject({ level: 'WARN', requestId: 'lambda-req-1', function_request_id: 'lambda-req-1' });
    expect(warning!.cvc).toBe(REDACTED);
    expect(warning!.password).toBe(REDACTED);
    expect(warning!.totpSecret).toBe(REDACTED);
    expect(warning!.session).toBe(REDACTED);
    expect(failure).toMatchObject({ level: 'ERROR', message: 'webhook-delivery failed' });
    expect(JSON.stringify(failure!.error)).toContain(REDACTED);
    expectNoSecret();
  });

  it('the MCP edge: an unexpected failure (the token could not be read) and its request line', async () => {
    const mcpRuntime = {
      authKeys: runtime.authKeys,
      clock: runtime.clock,
      rateLimiter: runtime.rateLimiter,
      cursors: runtime.cursors,
      services: {},
      authToken: {
        get: async () => {
          throw carelessError();
        },
        ready: async () => undefined,
      },
      toolPrefix: 'allowance',
    } as unknown as McpRuntime;
    const handler = createMcpFunctionUrlHandler(() => mcpRuntime);
    const event: APIGatewayProxyEventV2 = {
      ...httpEvent(
        '/mcp',
        JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
        `Bearer ${SECRETS.mcpToken}`,
      ),
      routeKey: '$default',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${SECRETS.mcpToken}`,
        'x-allowance-api-key': SECRETS.apiKey,
      },
    };
    const response = await handler(event, lambdaContext);
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    const request = lines().find((line) => line.message === 'request');
    expect(request).toMatchObject({ route: 'POST /mcp', requestId: 'req-logs-1', status: response.statusCode });
    expectNoSecret();
  });

  it('the logger itself: secrets as attributes, nested, in errors and in messages', () => {
    log.info(`careless: ${CARELESS_MESSAGE}`, CARELESS_ATTRIBUTES);
    log.error('careless error', carelessError(), CARELESS_ATTRIBUTES);
    log.debug('careless debug', { ...CARELESS_ATTRIBUTES, nested: { deeper: [CARELESS_ATTRIBUTES] } });
    expect(lines()).toHaveLength(3);
    expectNoSecret();
  });
});
