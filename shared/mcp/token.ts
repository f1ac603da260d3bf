import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { Config } from '../config/config.js';
import { ENV } from '../config/env-names.js';
import { cachedSecret, secretsManagerValue, type SecretSource, type SecretsReader } from '../secrets/secret-source.js';

/** The token's minimum length, as loadConfig requires of MCP_AUTH_TOKEN. */
export const MIN_MCP_TOKEN_LENGTH = 16;

/**
 * The MCP endpoint's bearer token: MCP_AUTH_TOKEN itself (the local run, tests), else the Secrets
 * Manager secret MCP_AUTH_TOKEN_SECRET_ARN names (AWS: the MCP stack generates it and only the MCP
 * function may read it), read at the first request and kept for the process. Undefined when neither
 * is set: every request is then refused.
 */
export function mcpTokenSource(
  config: Pick<Config, 'mcpAuthToken' | 'mcpAuthTokenSecretArn' | 'region'>,
  client: () => SecretsReader = () => new SecretsManagerClient({ region: config.region }),
): SecretSource | undefined {
  const { mcpAuthToken: token, mcpAuthTokenSecretArn: arn } = config;
  if (token !== undefined) return async () => token;
  if (arn === undefined) return undefined;
  return cachedSecret(async () => {
    const value = await secretsManagerValue(client(), arn);
    if (value === undefined || value.length < MIN_MCP_TOKEN_LENGTH) throw new Error(`the secret ${ENV.mcpAuthTokenSecretArn} names is shorter than ${MIN_MCP_TOKEN_LENGTH} characters`);
    return value;
  });
}
