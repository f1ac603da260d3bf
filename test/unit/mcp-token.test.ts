import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { mcpTokenSource } from '../../shared/mcp/token.js';

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
    expect(await mcpTokenSource({ mcpAuthToken: TOKEN, mcpAuthTokenSecretArn: ARN, region: REGION }, client)!()).toBe(TOKEN);
    expect(secrets.commandCalls(GetSecretValueCommand)).toHaveLength(0);
    expect(mcpTokenSource({ mcpAuthToken: undefined, mcpAuthTokenSecretArn: undefined, region: REGION }, client)).toBeUndefined();
  });
});
