import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { cachedSecret, secretsManagerValue, type SecretSource, type SecretsReader } from '../secrets/secret-source.js';
import { traced } from '../observability/tracer.js';
import { CARD_NETWORK_ENV } from './function.js';

export type { SecretSource } from '../secrets/secret-source.js';

/** The secret's minimum length: anything shorter is a configuration mistake, refused like no secret. */
export const MIN_SECRET_LENGTH = 32;

/**
 * The signing secret of the card network endpoint, read once per process (a Lambda cold start):
 * from Secrets Manager when `CARD_NETWORK_SECRET_ARN` is set (AWS; the role may read that secret
 * only), else `CARD_NETWORK_SECRET` (the local run, tests). A failed read or an unset secret is not
 * kept: the next request asks again. Undefined when neither is set (every request is then refused).
 */
export function cardNetworkSecret(
  env: Record<string, string | undefined> = process.env,
  client: () => SecretsReader = () => traced(new SecretsManagerClient({ region: env.AWS_REGION })),
): SecretSource {
  return cachedSecret(async () => {
    const arn = env[CARD_NETWORK_ENV.secretArn];
    const value = arn ? await secretsManagerValue(client(), arn) : env[CARD_NETWORK_ENV.secret];
    if (value === undefined || value.length === 0) return undefined;
    if (value.length < MIN_SECRET_LENGTH)
      throw new Error(`the card network secret is shorter than ${MIN_SECRET_LENGTH} characters`);
    return value;
  });
}
