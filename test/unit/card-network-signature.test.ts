import { createHmac } from 'node:crypto';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it, vi } from 'vitest';
import {
  CARD_NETWORK_ENV,
  CARD_NETWORK_FAILURE_MARKER,
  CARD_NETWORK_FUNCTION,
  CARD_NETWORK_SIGNATURE_HEADER,
} from '../../shared/card-network/function.js';
import { handleCardNetworkRequest, type CardNetworkRuntime } from '../../shared/card-network/http.js';
import { cardNetworkSecret } from '../../shared/card-network/secret.js';
import { signCardNetworkRequest, verifyCardNetworkSignature } from '../../shared/card-network/signature.js';
import { fixedClock } from '../../shared/domain/clock.js';

const SECRET = 'a'.repeat(20) + 'card-network-test-secret-0123456789';
const NOW_S = 1_760_000_000;
const BODY = JSON.stringify({
  networkId: 'iauth_1',
  cardId: 'card_abc',
  amount: '12.00',
  currency: 'USD',
  merchant: { name: 'OpenAI', category: '5734' },
});

const verify = (
  header: string | undefined,
  overrides: { body?: string | Uint8Array; secret?: string; nowS?: number } = {},
) =>
  verifyCardNetworkSignature({
    header,
    body: overrides.body ?? BODY,
    secret: overrides.secret ?? SECRET,
    nowS: overrides.nowS ?? NOW_S,
  });

describe('card network request signature', () => {
  it('is t=<seconds>,v1=<hex HMAC-SHA256 of "t.body"> keyed by the secret', () => {
    const expected = createHmac('sha256', SECRET).update(`${NOW_S}.${BODY}`).digest('hex');
    expect(signCardNetworkRequest(SECRET, BODY, NOW_S)).toBe(`t=${NOW_S},v1=${expected}`);
  });

  it('accepts a valid signature, of a string body or of its bytes, within the tolerance either way', () => {
    expect(verify(signCardNetworkRequest(SECRET, BODY, NOW_S))).toEqual({ ok: true, timestampS: NOW_S });
    expect(verify(signCardNetworkRequest(SECRET, BODY, NOW_S), { body: Buffer.from(BODY) }).ok).toBe(true);
    expect(verify(signCardNetworkRequest(SECRET, BODY, NOW_S - 299)).ok).toBe(true);
    expect(verify(signCardNetworkRequest(SECRET, BODY, NOW_S + 299)).ok).toBe(true);
    // Spaces after commas, unknown schemes beside v1, and a second v1 (rotation) are fine.
    const sig = signCardNetworkRequest(SECRET, BODY, NOW_S).split(',')[1]!;
    expect(verify(`t=${NOW_S}, v0=abc, v1=${'0'.repeat(64)}, ${sig}`).ok).toBe(true);
  });

  it('refuses a tampered body', () => {
    const header = signCardNetworkRequest(SECRET, BODY, NOW_S);
    expect(verify(header, { body: BODY.replace('12.00', '1200.00') })).toEqual({ ok: false, reason: 'mismatch' });
    expect(verify(header, { body: `${BODY} ` })).toEqual({ ok: false, reason: 'mismatch' });
    // The timestamp is signed too: moving it breaks the signature.
    expect(verify(header.replace(`t=${NOW_S}`, `t=${NOW_S + 1}`))).toEqual({ ok: false, reason: 'mismatch' });
  });

  it('refuses a signature made with another secret, and never verifies with an empty secret', () => {
    expect(verify(signCardNetworkRequest('another-secret-of-the-right-size-000000', BODY, NOW_S))).toEqual({
      ok: false,
      reason: 'mismatch',
    });
    expect(verify(signCardNetworkRequest('', BODY, NOW_S), { secret: '' })).toEqual({ ok: false, reason: 'mismatch' });
  });

  it('refuses a stale timestamp (a replay outside the window) and a future one, even correctly signed', () => {
    expect(verify(signCardNetworkRequest(SECRET, BODY, NOW_S - 301))).toEqual({ ok: false, reason: 'stale' });
    expect(verify(signCardNetworkRequest(SECRET, BODY, NOW_S - 86_400))).toEqual({ ok: false, reason: 'stale' });
    expect(verify(signCardNetworkRequest(SECRET, BODY, NOW_S + 301))).toEqual({ ok: false, reason: 'future' });
  });

  it('refuses a missing or malformed header', () => {
    const sig = '0'.repeat(64);
    expect(verify(undefined)).toEqual({ ok: false, reason: 'missing' });
    expect(verify('  ')).toEqual({ ok: false, reason: 'missing' });
    for (const header of [
      'garbage',
      `v1=${sig}`, // no timestamp
      `t=${NOW_S}`, // no signature
      `t=${NOW_S},v1=${sig.slice(1)}`, // 63 hex digits
      `t=${NOW_S},v1=${sig.toUpperCase().replace(/0/g, 'G')}`, // not hex
      `t=${NOW_S},v1=${'A'.repeat(64)}`, // upper-case hex
      `t=-5,v1=${sig}`,
      `t=1.5,v1=${sig}`,
      `t=${NOW_S},t=${NOW_S},v1=${sig}`, // two timestamps
      `t=${NOW_S},,v1=${sig}`,
      `t=${NOW_S},${Array.from({ length: 5 }, () => `v1=${sig}`).join(',')}`, // too many signatures
      `t=${NOW_S},v1=${sig},x=${'y'.repeat(2000)}`, // too long
    ]) {
      expect(verify(header), header.slice(0, 80)).toEqual({ ok: false, reason: 'malformed' });
    }
  });
});

describe('card network signing secret', () => {
  it('reads the Secrets Manager secret once when the ARN is set, and again after a failed read', async () => {
    const sm = mockClient(SecretsManagerClient);
    sm.on(GetSecretValueCommand).rejectsOnce(new Error('throttled')).resolves({ SecretString: SECRET });
    const client = new SecretsManagerClient({ region: 'eu-west-1' });
    const secret = cardNetworkSecret(
      {
        [CARD_NETWORK_ENV.secretArn]: 'arn:aws:secretsmanager:eu-west-1:1:secret:x',
        [CARD_NETWORK_ENV.secret]: 'ignored-when-the-arn-is-set-0000000000',
      },
      () => client,
    );
    await expect(secret()).rejects.toThrow('throttled');
    expect(await secret()).toBe(SECRET);
    expect(await secret()).toBe(SECRET);
    expect(sm.commandCalls(GetSecretValueCommand)).toHaveLength(2);
    expect(sm.commandCalls(GetSecretValueCommand)[1]!.args[0].input).toEqual({
      SecretId: 'arn:aws:secretsmanager:eu-west-1:1:secret:x',
    });
    sm.restore();
  });

  it('takes the secret from the environment otherwise; unset is undefined (asked again), too short an error', async () => {
    const env: Record<string, string | undefined> = {};
    const secret = cardNetworkSecret(env, () => {
      throw new Error('no client locally');
    });
    expect(await secret()).toBeUndefined();
    env[CARD_NETWORK_ENV.secret] = SECRET;
    expect(await secret()).toBe(SECRET);
    await expect(cardNetworkSecret({ [CARD_NETWORK_ENV.secret]: 'short' })()).rejects.toThrow(/shorter than/);
  });
});

describe('card network edge (handleCardNetworkRequest)', () => {
  const clock = fixedClock(new Date(NOW_S * 1000));
  const decision = { approved: true, authorizationId: 'auth_1' };

  function runtimeWith(overrides: Partial<CardNetworkRuntime> = {}) {
    const authorizeForNetwork = vi.fn(async () => decision);
    const log = { error: vi.fn(), warn: vi.fn() };
    const runtime: CardNetworkRuntime = {
      engine: { authorizeForNetwork },
      environment: 'SANDBOX',
      secret: async () => SECRET,
      clock,
      log,
      ...overrides,
    };
    return { runtime, authorizeForNetwork, log };
  }

  const event = (
    options: { body?: string; headers?: Record<string, string>; method?: string; path?: string; base64?: boolean } = {},
  ): APIGatewayProxyEventV2 => {
    const body = options.body ?? BODY;
    return {
      version: '2.0',
      routeKey: '$default',
      rawPath: options.path ?? CARD_NETWORK_FUNCTION.path,
      rawQueryString: '',
      headers: options.headers ?? { [CARD_NETWORK_SIGNATURE_HEADER]: signCardNetworkRequest(SECRET, body, NOW_S) },
      requestContext: {
        requestId: 'req-1',
        http: {
          method: options.method ?? 'POST',
          path: options.path ?? CARD_NETWORK_FUNCTION.path,
          protocol: 'HTTP/1.1',
          sourceIp: '203.0.113.9',
          userAgent: 'processor',
        },
      } as APIGatewayProxyEventV2['requestContext'],
      body: options.base64 ? Buffer.from(body).toString('base64') : body,
      isBase64Encoded: options.base64 ?? false,
    };
  };
  const json = (body: string) => JSON.parse(body) as Record<string, any>;

  it("answers a signed request with the engine's decision (200), base64 bodies included", async () => {
    const { runtime, authorizeForNetwork } = runtimeWith();
    const result = await handleCardNetworkRequest(event(), runtime);
    expect(result.statusCode).toBe(200);
    expect(json(result.body)).toEqual(decision);
    expect(result.headers['X-Request-Id']).toBe('req-1');
    expect(result.headers['Strict-Transport-Security']).toBeTruthy();
    expect(authorizeForNetwork).toHaveBeenCalledWith(CARD_NETWORK_FUNCTION.audit, json(BODY), 'SANDBOX');
    expect((await handleCardNetworkRequest(event({ base64: true }), runtime)).statusCode).toBe(200);
  });

  it('answers 401 with the error envelope to unsigned, tampered, stale and unconfigured requests, never calling the engine', async () => {
    const { runtime, authorizeForNetwork, log } = runtimeWith();
    const signed = signCardNetworkRequest(SECRET, BODY, NOW_S);
    const refused = [
      event({ headers: {} }),
      event({ headers: { [CARD_NETWORK_SIGNATURE_HEADER]: signed }, body: BODY.replace('12.00', '99.00') }),
      event({ headers: { [CARD_NETWORK_SIGNATURE_HEADER]: signCardNetworkRequest(SECRET, BODY, NOW_S - 600) } }),
    ];
    for (const request of refused) {
      const result = await handleCardNetworkRequest(request, runtime);
      expect(result.statusCode).toBe(401);
      expect(json(result.body).error).toMatchObject({ code: 'UNAUTHORIZED', requestId: 'req-1' });
      expect(result.body).not.toContain(signed);
    }
    // The reason for the operators (a log attribute), never for the caller.
    expect(log.warn.mock.calls.map((call) => (call[2] as { reason?: string } | undefined)?.reason)).toEqual([
      'missing',
      'mismatch',
      'stale',
    ]);
    const unconfigured = await handleCardNetworkRequest(
      event(),
      runtimeWith({ secret: async () => undefined }).runtime,
    );
    expect(unconfigured.statusCode).toBe(401);
    expect(json(unconfigured.body).error.message).toMatch(/not configured/);
    expect(authorizeForNetwork).not.toHaveBeenCalled();
  });

  it('answers 404 off its path, 405 to other methods, 413 to large bodies, before the signature', async () => {
    const { runtime, authorizeForNetwork } = runtimeWith();
    expect((await handleCardNetworkRequest(event({ path: '/other' }), runtime)).statusCode).toBe(404);
    const get = await handleCardNetworkRequest(event({ method: 'GET' }), runtime);
    expect(get.statusCode).toBe(405);
    expect(get.headers.Allow).toBe('POST');
    const large = 'x'.repeat(CARD_NETWORK_FUNCTION.maxBodyBytes + 1);
    expect((await handleCardNetworkRequest(event({ body: large }), runtime)).statusCode).toBe(413);
    expect(authorizeForNetwork).not.toHaveBeenCalled();
  });

  it('declines a signed body that is not the request (invalid_request), and an engine failure (processing_error) with the failure marker', async () => {
    const { runtime, log } = runtimeWith({
      engine: { authorizeForNetwork: async () => Promise.reject(new Error('table unavailable')) },
    });
    const notJson = await handleCardNetworkRequest(event({ body: 'not json' }), runtime);
    expect(notJson.statusCode).toBe(200);
    expect(json(notJson.body)).toEqual({ approved: false, reason: 'invalid_request' });
    const failed = await handleCardNetworkRequest(event(), runtime);
    expect(json(failed.body)).toEqual({ approved: false, reason: 'processing_error' });
    expect(log.error).toHaveBeenCalledTimes(1);
    expect(log.error.mock.calls[0]![0]).toBe(CARD_NETWORK_FAILURE_MARKER);
    expect(JSON.stringify(log.error.mock.calls)).not.toContain('OpenAI');
  });

  it('answers 500 (marked in the log) when the secret can not be read', async () => {
    const { runtime, log } = runtimeWith({ secret: async () => Promise.reject(new Error('AccessDenied')) });
    const result = await handleCardNetworkRequest(event(), runtime);
    expect(result.statusCode).toBe(500);
    expect(json(result.body).error.code).toBe('INTERNAL_ERROR');
    expect(log.error.mock.calls[0]![0]).toBe(CARD_NETWORK_FAILURE_MARKER);
  });
});
