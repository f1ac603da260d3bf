import { decryptSecret, encryptSecret } from '../auth/secret-box.js';
import type { SecretCipher } from '../domain/webhooks/ports.js';

/** Webhook secrets at rest: AES-256-GCM with WEBHOOK_ENCRYPTION_KEY (`iv:authTag:ciphertext`). */
export function secretCipher(keyHex: string): SecretCipher {
  return { encrypt: (plain) => encryptSecret(plain, keyHex), decrypt: (stored) => decryptSecret(stored, keyHex) };
}
