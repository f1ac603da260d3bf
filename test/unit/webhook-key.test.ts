import { randomBytes } from 'node:crypto';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { secretCipher, webhookKeySource } from '../../shared/webhooks/secret-cipher.js';

const KEY = randomBytes(32).toString('hex');
const ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:WebhookEncryptionKey-AbCdEf';
const REGION = 'eu-west-1';

/** WEBHOOK_ENCRYPTION_KEY from the environment (local) or from its secret (AWS), and the cipher over it. */
describe('webhook encryption key', () => {
  const secrets = mockClient(SecretsManagerClient);
  afterEach(() => secrets.reset());
  const client = () => new SecretsManagerClient({ region: REGION });

  it('reads the secret the ARN names once per process, and again after a failed read', async () => {
    secrets.on(GetSecretValueCommand).rejectsOnce(new Error('throttled')).resolves({ SecretString: KEY });
    const key = webhookKeySource(
      { webhookEncryptionKey: undefined, webhookEncryptionKeySecretArn: ARN, region: REGION },
      client,
    )!;
    await expect(key()).rejects.toThrow('throttled');
    expect(await key()).toBe(KEY);
    expect(await key()).toBe(KEY);
    const calls = secrets.commandCalls(GetSecretValueCommand);
    expect(calls).toHaveLength(2);
    expect(calls[1]!.args[0].input).toEqual({ SecretId: ARN });
  });

  it('refuses a secret that is not 32 bytes as hex, without repeating its value', async () => {
    secrets.on(GetSecretValueCommand).resolves({ SecretString: 'not-a-key-at-all' });
    const key = webhookKeySource(
      { webhookEncryptionKey: undefined, webhookEncryptionKeySecretArn: ARN, region: REGION },
      client,
    )!;
    const message = await key().then(
      () => 'resolved',
      (caught: unknown) => (caught as Error).message,
    );
    expect(message).toMatch(/WEBHOOK_ENCRYPTION_KEY_SECRET_ARN names is not 32 bytes as hex/);
    expect(message).not.toContain('not-a-key-at-all');
  });

  it('prefers the key given in the environment (no Secrets Manager call), and is absent when neither is set', async () => {
    const key = webhookKeySource(
      { webhookEncryptionKey: KEY, webhookEncryptionKeySecretArn: ARN, region: REGION },
      client,
    )!;
    expect(await key()).toBe(KEY);
    expect(secrets.commandCalls(GetSecretValueCommand)).toHaveLength(0);
    expect(
      webhookKeySource(
        { webhookEncryptionKey: undefined, webhookEncryptionKeySecretArn: undefined, region: REGION },
        client,
      ),
    ).toBeUndefined();
  });

  it('seals as iv:authTag:ciphertext and opens only under the same key', async () => {
    secrets.on(GetSecretValueCommand).resolves({ SecretString: KEY });
    const fromSecret = secretCipher(
      webhookKeySource(
        { webhookEncryptionKey: undefined, webhookEncryptionKeySecretArn: ARN, region: REGION },
        client,
      )!,
    );
    const fromEnvironment = secretCipher(async () => KEY);
    const sealed = await fromSecret.encrypt('whsec_c2VjcmV0');
    expect(sealed).toMatch(/^[0-9a-f]{24}:[0-9a-f]{32}:[0-9a-f]+$/);
    expect(await fromEnvironment.decrypt(sealed)).toBe('whsec_c2VjcmV0');
    await expect(secretCipher(async () => randomBytes(32).toString('hex')).decrypt(sealed)).rejects.toThrow();
    await expect(secretCipher(async () => undefined).encrypt('x')).rejects.toThrow(
      'WEBHOOK_ENCRYPTION_KEY is not configured',
    );
  });
});
