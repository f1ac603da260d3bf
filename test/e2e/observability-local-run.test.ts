import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARD_NETWORK_SIGNATURE_HEADER } from '../../shared/card-network/function.js';
import { signCardNetworkRequest } from '../../shared/card-network/signature.js';
import { ENV } from '../../shared/config/env-names.js';
import { METRIC, METRICS_NAMESPACE } from '../../shared/observability/metric-names.js';
import { eventually } from '../fixtures/eventually.js';
import { createTestTable } from '../fixtures/table.js';
import { startReceiver } from '../fixtures/webhook-receiver.js';

/**
 * Issue 26, "a test drives `npm start`": the local run as a user starts it (`npm start` is
 * `tsx bin/local.ts`; spawned here as that command with a free PORT, on the shared DynamoDB Local
 * through DYNAMODB_ENDPOINT instead of a second Java process, from a scratch directory so its
 * `.local/credentials.json` is its own), its output piped (not a terminal: JSON lines). Through it
 * a payment, a refusal, a webhook delivery and a card authorization; then its output holds the
 * request lines with request and correlation ids, the delivery's line carrying the payment
 * request's id, the EMF metrics, and none of the secrets the run used.
 */
const REPO = fileURLToPath(new URL('../../', import.meta.url));
const TSX = path.join(REPO, 'node_modules', 'tsx', 'dist', 'cli.mjs');
const SOFTWARE = { name: 'OpenAI', category: '5734', country: 'US' };

interface Credentials {
  baseUrl: string;
  adminKey: string;
  organizationId: string;
  sandboxKey: string;
  mcpToken: string;
  cardNetworkUrl: string;
  cardNetworkSecret: string;
}
type Line = Record<string, unknown>;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('npm start: the JSON lines and metrics of a payment, a refusal, a delivery and an authorization', () => {
  let child: ChildProcess;
  let dir: string;
  let output = '';
  let credentials: Credentials;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const used: Record<string, string> = {};

  const call = async (method: string, route: string, body?: unknown, key = credentials.sandboxKey) => {
    const response = await fetch(credentials.baseUrl + route, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    return { status: response.status, requestId: response.headers.get('x-request-id')!, body: JSON.parse(text), text };
  };
  const lines = (): Line[] =>
    output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Line);

  beforeAll(async () => {
    const table = await createTestTable();
    dir = mkdtempSync(path.join(tmpdir(), 'allowance-obs-'));
    receiver = await startReceiver();
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env };
    // As a user's shell: none of the test runner's quieting (vitest.config.ts), the run's own defaults.
    for (const name of Object.keys(env)) if (name.startsWith('POWERTOOLS_')) delete env[name];
    Object.assign(env, {
      PORT: String(port),
      [ENV.dynamodbEndpoint]: table.endpoint,
      [ENV.tableName]: table.tableName,
      [ENV.timeScale]: '3600',
    });
    child = spawn(
      process.execPath,
      [TSX, '--tsconfig', path.join(REPO, 'tsconfig.json'), path.join(REPO, 'bin/local.ts')],
      {
        cwd: dir,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      },
    );
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await eventually(() => {
      if (child.exitCode !== null) throw new Error(`npm start exited ${child.exitCode}:\n${output}`);
      expect(output).toContain('Allowance is running at');
    }, 180_000);
    credentials = JSON.parse(readFileSync(path.join(dir, '.local', 'credentials.json'), 'utf8')) as Credentials;
    Object.assign(used, {
      adminKey: credentials.adminKey,
      sandboxKey: credentials.sandboxKey,
      mcpToken: credentials.mcpToken,
      cardNetworkSecret: credentials.cardNetworkSecret,
    });
  }, 240_000);

  afterAll(async () => {
    if (child?.pid && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      process.kill(-child.pid, 'SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    }
    await receiver?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  let payment: { requestId: string; id: string };
  let refusal: { requestId: string; code: string };
  let authorizationRequest: string;

  it('serves a payment, a refusal, a webhook delivery and a card authorization', async () => {
    const wallets = await call('GET', '/v1/wallets?limit=10');
    const main = (wallets.body.data as { id: string; isMain: boolean }[]).find((wallet) => wallet.isMain)!;
    expect((await call('POST', `/v1/wallets/${main.id}/fund`, { amount: '100.00' })).status).toBe(200);
    const payee = await call('POST', '/v1/wallets', { name: 'Observed payee' });
    expect(payee.status, payee.text).toBe(201);
    const hook = await call('POST', '/v1/webhooks', { url: receiver.url('/obs'), events: ['payment.posted'] });
    expect(hook.status, hook.text).toBe(201);
    used.webhookSecret = hook.body.secret as string;

    const posted = await call('POST', '/v1/payments', { from: main.id, to: payee.body.id, amount: '5.00' });
    expect(posted.status, posted.text).toBe(200);
    payment = { requestId: posted.requestId, id: posted.body.id as string };
    const refused = await call('POST', '/v1/payments', { from: payee.body.id, to: main.id, amount: '500.00' });
    expect(refused.status, refused.text).toBeGreaterThanOrEqual(400);
    refusal = { requestId: refused.requestId, code: refused.body.error.code as string };

    await eventually(() => expect(receiver.at('/obs').length).toBeGreaterThan(0), 30_000);
    expect(JSON.parse(receiver.at('/obs')[0]!.body)).toMatchObject({
      type: 'payment.posted',
      data: { id: payment.id },
    });

    const card = await call('POST', '/v1/cards', { walletId: main.id, type: 'PERSISTENT' });
    expect(card.status, card.text).toBe(201);
    const details = await call('GET', `/v1/cards/${card.body.id}/details`);
    expect(details.status, details.text).toBe(200);
    used.cardNumber = details.body.number as string;
    used.cvc = details.body.cvc as string;
    const body = JSON.stringify({
      networkId: 'iauth_obs_1',
      cardId: card.body.id,
      amount: '3.00',
      currency: 'USD',
      merchant: SOFTWARE,
    });
    const nowS = Math.floor(Date.now() / 1000);
    const decided = await fetch(credentials.cardNetworkUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [CARD_NETWORK_SIGNATURE_HEADER]: signCardNetworkRequest(credentials.cardNetworkSecret, body, nowS),
      },
      body,
    });
    authorizationRequest = decided.headers.get('x-request-id')!;
    expect(await decided.json()).toMatchObject({ approved: true });
  });

  it('printed one JSON request line per request, with its request id, route, status, principal and correlation id', async () => {
    await eventually(() =>
      expect(lines().some((line) => line.message === 'webhook delivery attempt' && line.outcome === 'SUCCEEDED')).toBe(
        true,
      ),
    );
    const requests = lines().filter((line) => line.message === 'request');
    const of = (requestId: string) => requests.filter((line) => line.requestId === requestId);
    expect(of(payment.requestId)).toEqual([
      expect.objectContaining({
        level: 'INFO',
        service: 'allowance-local',
        route: 'POST /v1/payments',
        status: 200,
        durationMs: expect.any(Number),
        principalKind: 'ORGANIZATION',
        organizationId: credentials.organizationId,
        correlationId: payment.requestId,
        cold_start: expect.any(Boolean),
        function_request_id: expect.any(String),
        timestamp: expect.any(String),
      }),
    ]);
    expect(of(refusal.requestId)).toEqual([
      expect.objectContaining({
        route: 'POST /v1/payments',
        status: expect.any(Number),
        correlationId: refusal.requestId,
      }),
    ]);
    expect(of(authorizationRequest)).toEqual([
      expect.objectContaining({ route: 'POST /card-network/authorizations', status: 200, principalKind: 'NONE' }),
    ]);
  });

  it("carried the payment request's id to the webhook delivery (its event, the delivery worker's line)", () => {
    const attempts = lines().filter((line) => line.message === 'webhook delivery attempt');
    expect(attempts).toContainEqual(
      expect.objectContaining({ outcome: 'SUCCEEDED', eventType: 'payment.posted', correlationId: payment.requestId }),
    );
  });

  it('printed the EMF metrics: payments posted and refused by code, write units per operation, the delivery, the authorization', () => {
    const emf = lines().filter((line) => line._aws);
    const values = (name: string, where: Record<string, string> = {}) =>
      emf
        .filter((line) => {
          const directive = (line._aws as { CloudWatchMetrics: { Namespace: string; Metrics: { Name: string }[] }[] })
            .CloudWatchMetrics[0]!;
          return (
            directive.Namespace === METRICS_NAMESPACE &&
            directive.Metrics.some((metric) => metric.Name === name) &&
            Object.entries(where).every(([key, value]) => line[key] === value)
          );
        })
        .flatMap((line) => [line[name]].flat());
    expect(values(METRIC.paymentsPosted)).toContain(1);
    expect(values(METRIC.paymentsRefused, { code: refusal.code })).toContain(1);
    expect(values(METRIC.consumedWriteUnits, { operation: 'createPayment' }).length).toBeGreaterThan(0);
    expect(values(METRIC.webhookDeliveries, { outcome: 'delivered' })).toContain(1);
    expect(values(METRIC.webhookDeliveryLatency).length).toBeGreaterThan(0);
    expect(values(METRIC.cardAuthorizations, { decision: 'approved' })).toContain(1);
    expect(values(METRIC.cardAuthorizationLatency).length).toBeGreaterThan(0);
    for (const line of emf) expect(line).toMatchObject({ service: 'allowance', stage: 'local' });
  });

  it('logged none of the secrets it used (keys, the MCP token, the webhook secret, the card number and CVC, the network secret)', () => {
    const logged = lines()
      .map((line) => JSON.stringify(line))
      .join('\n');
    expect(Object.keys(used).sort()).toEqual(
      ['adminKey', 'cardNetworkSecret', 'cardNumber', 'cvc', 'mcpToken', 'sandboxKey', 'webhookSecret'].sort(),
    );
    for (const [kind, secret] of Object.entries(used)) {
      expect(secret.length, kind).toBeGreaterThan(2);
      if (kind === 'cvc') expect(logged, kind).not.toMatch(new RegExp(`["=:]${secret}\\b`));
      else expect(logged, kind).not.toContain(secret);
    }
  });
});
