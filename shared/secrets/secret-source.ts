import { GetSecretValueCommand, type SecretsManagerClient } from '@aws-sdk/client-secrets-manager';

/** A secret's value, read when first needed; undefined when it is not configured. */
export type SecretSource = () => Promise<string | undefined>;

/** The SecretsManagerClient method a secret source uses (tests pass aws-sdk-client-mock's client). */
export type SecretsReader = Pick<SecretsManagerClient, 'send'>;

/**
 * Reads a secret when first needed and keeps it: for the process (a Lambda instance), or for
 * `maxAgeMs` when given (a secret that may be replaced, such as a token to revoke). A failed read,
 * or a secret that is not configured, is not kept: the next use asks again (a test or the local run
 * may set it later; a passing Secrets Manager error heals).
 */
export function cachedSecret(read: () => Promise<string | undefined>, options: { maxAgeMs?: number; now?: () => number } = {}): SecretSource {
  const now = options.now ?? Date.now;
  let cached: Promise<string | undefined> | undefined;
  let readAt = 0;
  return () => {
    if (cached && options.maxAgeMs !== undefined && now() - readAt >= options.maxAgeMs) cached = undefined;
    if (!cached) readAt = now();
    cached ??= read().then(
      (value) => {
        if (value === undefined) cached = undefined;
        return value;
      },
      (error: unknown) => {
        cached = undefined;
        throw error;
      },
    );
    return cached;
  };
}

/** The string value of a Secrets Manager secret (the role may read that secret only: ServiceFunction.bindSecret). */
export async function secretsManagerValue(client: SecretsReader, arn: string): Promise<string | undefined> {
  const value = (await client.send(new GetSecretValueCommand({ SecretId: arn }))).SecretString;
  return value === undefined || value.length === 0 ? undefined : value;
}
