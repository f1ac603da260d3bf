import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { MCP_FUNCTION } from '../../shared/mcp/function.js';
import { handleMcpRequest } from '../../shared/mcp/http.js';
import type { McpRuntime } from '../../shared/mcp/server.js';
import { MCP_TOKEN_MAX_AGE_MS, mcpTokenSource } from '../../shared/mcp/token.js';

const TOKEN = 'Tok3nFromSecretsManager0123456789abcdefABCDEF0123';
const ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:McpAuthToken-AbCdEf';
const REGION = 'eu-west-1';

/** The MCP endpoint's token: MCP_AUTH_TOKEN locally, its secret in AWS (read at the first request). */
describe('MCP token source', () => {
  const secrets = mockClient(SecretsManagerClient);
  afterEach(() => secrets.reset());
  const client = () => new SecretsManagerClient({ region: REGION });

  it('reads the secret the ARN names once per process, and again after a failed read', async () => {
    secrets.on(GetSecretValueCommand).rejectsOnce(new Error('throttled')).resolves({ SecretString: TOKEN });
    const token = mcpTokenSource({ mcpAuthToken: undefined, mcpAuthTokenSecretArn: ARN, region: REGION }, client)!;
    await expect(token()).rejects.toThrow('throttled');
    expect(await token()).toBe(TOKEN);
    expect(await token()).toBe(TOKEN);
    const calls = secrets.commandCalls(GetSecretValueCommand);
    expect(calls).toHaveLength(2);
    expect(calls[1]!.args[0].input).toEqual({ SecretId: ARN });
  });

  it('refuses a secret shorter than 16 characters without repeating it', async () => {
    secrets.on(GetSecretValueCommand).resolves({ SecretString: 'short-token' });
    const token = mcpTokenSource({ mcpAuthToken: undefined, mcpAuthTokenSecretArn: ARN, region: REGION }, client)!;
    const message = await token().then(
      () => 'resolved',
      (caught: unknown) => (caught as Error).message,
    );
    expect(message).toMatch(/MCP_AUTH_TOKEN_SECRET_ARN names is shorter than 16 characters/);
    expect(message).not.toContain('short-token');
  });

  it('prefers MCP_AUTH_TOKEN (no Secrets Manager call), and is absent when neither is set', async () => {
    expect(await mcpTokenSource({ mcpAuthToken: TOKEN, mcpAuthTokenSecretArn: ARN, region: REGION }, client)!()).toBe(
      TOKEN,
    );
    expect(secrets.commandCalls(GetSecretValueCommand)).toHaveLength(0);
    expect(
      mcpTokenSource({ mcpAuthToken: undefined, mcpAuthTokenSecretArn: undefined, region: REGION }, client),
    ).toBeUndefined();
  });

  it('reads the secret again after MCP_TOKEN_MAX_AGE_MS, so a replaced token stops working within it', async () => {
    let now = 1_000_000;
    secrets
      .on(GetSecretValueCommand)
      .resolvesOnce({ SecretString: TOKEN })
      .resolves({ SecretString: `${TOKEN}-rotated` });
    const token = mcpTokenSource(
      { mcpAuthToken: undefined, mcpAuthTokenSecretArn: ARN, region: REGION },
      client,
      () => now,
    )!;
    expect(await token()).toBe(TOKEN);
    now += MCP_TOKEN_MAX_AGE_MS - 1;
    expect(await token()).toBe(TOKEN);
    now += 1;
    expect(await token()).toBe(`${TOKEN}-rotated`);
    expect(secrets.commandCalls(GetSecretValueCommand)).toHaveLength(2);
  });

  it.each([
    [{}, /holds no text/],
    [{ SecretString: `${TOKEN}\n` }, /contains white space/],
  ])('refuses a secret that could never match a bearer token (%j)', async (answer, problem) => {
    secrets.on(GetSecretValueCommand).resolves(answer);
    await expect(
      mcpTokenSource({ mcpAuthToken: undefined, mcpAuthTokenSecretArn: ARN, region: REGION }, client)!(),
    ).rejects.toThrow(problem);
  });
});

describe('MCP endpoint with its token read from a secret', () => {
  const runtimeWith = (authToken: McpRuntime['authToken']): McpRuntime => ({
    authKeys: { getApiKeyByHash: () => Promise.resolve(undefined), touchApiKey: () => Promise.resolve() },
    clock: { now: () => new Date() },
    rateLimiter: () => ({ allowed: true, retryAfterS: 0 }),
    cursors: () => Promise.reject(new Error('no cursors in this test')),
    services: {},
    authToken,
    toolPrefix: 'allowance_',
  });
  const post = (authorization?: string) =>
    new Request(`http://localhost${MCP_FUNCTION.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
      body: '{}',
    });
  const facts = { requestId: 'req_1', sourceIp: '127.0.0.1' };

  it('refuses a request without a token before reading the secret, and answers 500 (never 2xx) when the read fails', async () => {
    let reads = 0;
    const failing = mcpTokenSource({ mcpAuthToken: undefined, mcpAuthTokenSecretArn: ARN, region: REGION }, () => {
      reads += 1;
      return { send: () => Promise.reject(new Error('AccessDeniedException')) } as never;
    });
    const runtime = runtimeWith(failing);
    const anonymous = await handleMcpRequest(post(), runtime, facts);
    expect(anonymous.status).toBe(401);
    expect(reads).toBe(0);
    const errorLog = console.error;
    console.error = () => undefined;
    try {
      const withToken = await handleMcpRequest(post(`Bearer ${TOKEN}`), runtime, facts);
      expect(withToken.status).toBe(500);
      expect(await withToken.text()).not.toContain('AccessDenied');
    } finally {
      console.error = errorLog;
    }
    expect(reads).toBe(1);
  });

  it('answers 401 to a wrong token and to an empty one read from the secret', async () => {
    expect(
      (
        await handleMcpRequest(
          post('Bearer wrong-token-0123456789'),
          runtimeWith(async () => TOKEN),
          facts,
        )
      ).status,
    ).toBe(401);
    expect(
      (
        await handleMcpRequest(
          post(`Bearer ${TOKEN}`),
          runtimeWith(async () => undefined),
          facts,
        )
      ).status,
    ).toBe(401);
    expect(
      (
        await handleMcpRequest(
          post(`Bearer ${TOKEN}`),
          runtimeWith(async () => ''),
          facts,
        )
      ).status,
    ).toBe(401);
  });
});
