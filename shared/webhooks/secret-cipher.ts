import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { decryptSecret, encryptSecret } from '../auth/secret-box.js';
import { HEX_KEY, type Config } from '../config/config.js';
import { ENV } from '../config/env-names.js';
import type { SecretCipher } from '../domain/webhooks/ports.js';
import { traced } from '../observability/tracer.js';
import { settingOrSecret, type SecretSource, type SecretsReader } from '../secrets/secret-source.js';

/**
 * WEBHOOK_ENCRYPTION_KEY: the variable itself (the local run, tests), else the Secrets Manager
 * secret WEBHOOK_ENCRYPTION_KEY_SECRET_ARN names (AWS: the data stack generates it, and only the
 * functions that seal or open webhook secrets may read it), read at the first use and kept for the
 * process. Undefined when neither is set: webhooks can then not be created.
 */
export function webhookKeySource(
  config: Pick<Config, 'webhookEncryptionKey' | 'webhookEncryptionKeySecretArn' | 'region'>,
  client: () => SecretsReader = () => traced(new SecretsManagerClient({ region: config.region })),
): SecretSource | undefined {
  const problem = (key: string | undefined) =>
    key !== undefined && HEX_KEY.regex.test(key) ? undefined : `is not ${HEX_KEY.message.replace(/^must be /, '')}`;
  return settingOrSecret(
    {
      value: config.webhookEncryptionKey,
      arn: config.webhookEncryptionKeySecretArn,
      arnVariable: ENV.webhookEncryptionKeySecretArn,
      problem,
    },
    client,
  );
}

/** Webhook secrets at rest: AES-256-GCM under the key (`iv:authTag:ciphertext`, decisions.md section 8). */
export function secretCipher(key: SecretSource): SecretCipher {
  const keyHex = async (): Promise<string> => {
    const value = await key();
    if (value === undefined) throw new Error(`${ENV.webhookEncryptionKey} is not configured`);
    return value;
  };
  return {
    encrypt: async (plain) => encryptSecret(plain, await keyHex()),
    decrypt: async (stored) => decryptSecret(stored, await keyHex()),
    ready: async () => void (await keyHex()),
  };
}
