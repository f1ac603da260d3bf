import type { SecretCipher } from '../domain/webhooks/ports.js';
import { secretCipher, webhookKeySource } from '../webhooks/secret-cipher.js';
import type { Core } from './core.js';

const ciphers = new WeakMap<Core, SecretCipher | undefined>();

/**
 * Webhook secrets at rest under WEBHOOK_ENCRYPTION_KEY, or its secret in AWS (read once per
 * process, shared by the services of one core: webhooks, their delivery, compliance's key check);
 * undefined when neither is set.
 */
export function cipherOf(core: Core): SecretCipher | undefined {
  if (!ciphers.has(core)) {
    const key = webhookKeySource(core.config);
    ciphers.set(core, key ? secretCipher(key) : undefined);
  }
  return ciphers.get(core);
}
