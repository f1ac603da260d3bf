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
export function cachedSecret(
  read: () => Promise<string | undefined>,
  options: { maxAgeMs?: number; now?: () => number } = {},
): SecretSource {
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

/**
 * A setting given either as its value (the local run, tests) or as the ARN of the Secrets Manager
 * secret holding it (AWS). The value wins; the secret is read when first needed (kept as
 * `cachedSecret` keeps it) and checked: `problem` says what is wrong with what was read, never
 * repeating it, and the read then fails naming `arnVariable`. Undefined when neither is set.
 */
export function settingOrSecret(
  setting: {
    value: string | undefined;
    arn: string | undefined;
    arnVariable: string;
    problem: (value: string | undefined) => string | undefined;
    maxAgeMs?: number;
  },
  client: () => SecretsReader,
  now?: () => number,
): SecretSource | undefined {
  const { value, arn, arnVariable, problem, maxAgeMs } = setting;
  if (value !== undefined) return async () => value;
  if (arn === undefined) return undefined;
  return cachedSecret(
    async () => {
      const read = await secretsManagerValue(client(), arn);
      const wrong = problem(read);
      if (wrong !== undefined || read === undefined)
        throw new Error(`the secret ${arnVariable} names ${wrong ?? 'holds no text'}`);
      return read;
    },
    { ...(maxAgeMs !== undefined ? { maxAgeMs } : {}), ...(now ? { now } : {}) },
  );
}
