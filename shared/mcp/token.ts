import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { Config } from '../config/config.js';
import { ENV } from '../config/env-names.js';
import { traced } from '../observability/tracer.js';
import { settingOrSecret, type SecretSource, type SecretsReader } from '../secrets/secret-source.js';

/** The token's minimum length, as loadConfig requires of MCP_AUTH_TOKEN. */
export const MIN_MCP_TOKEN_LENGTH = 16;

/** How long an instance keeps the token read from its secret: a replaced (revoked) token stops working within this. */
export const MCP_TOKEN_MAX_AGE_MS = 5 * 60_000;

/**
 * The MCP endpoint's bearer token: MCP_AUTH_TOKEN itself (the local run, tests), else the Secrets
 * Manager secret MCP_AUTH_TOKEN_SECRET_ARN names (AWS: the MCP stack generates it and only the MCP
 * function may read it), read at the first request and kept for MCP_TOKEN_MAX_AGE_MS (a replaced
 * token stops working within it). Undefined when neither is set: every request is then refused.
 */
export function mcpTokenSource(
  config: Pick<Config, 'mcpAuthToken' | 'mcpAuthTokenSecretArn' | 'region'>,
  client: () => SecretsReader = () => traced(new SecretsManagerClient({ region: config.region })),
  now: () => number = Date.now,
): SecretSource | undefined {
  const problem = (token: string | undefined) =>
    token === undefined
      ? 'holds no text'
      : // A bearer token is one run of non-space characters: anything else could never match.
        /\s/.test(token)
        ? 'contains white space'
        : token.length < MIN_MCP_TOKEN_LENGTH
          ? `is shorter than ${MIN_MCP_TOKEN_LENGTH} characters`
          : undefined;
  return settingOrSecret(
    {
      value: config.mcpAuthToken,
      arn: config.mcpAuthTokenSecretArn,
      arnVariable: ENV.mcpAuthTokenSecretArn,
      problem,
      maxAgeMs: MCP_TOKEN_MAX_AGE_MS,
    },
    client,
    now,
  );
}
