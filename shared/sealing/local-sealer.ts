import type { Sealer } from '../domain/sealing.js';
import { gcmDecrypt, gcmEncrypt, joinSealed, KEY_BYTES, splitSealed } from './aes-gcm.js';

/** Version prefix of values sealed under the local key: `lk1.<iv>.<tag>.<ciphertext>` (base64url). */
export const LOCAL_SEALED_PREFIX = 'lk1';

/**
 * The local run's sealer (and any deployment without DATA_KEY_ID): AES-256-GCM directly under the
 * 32-byte DATA_ENCRYPTION_KEY, the context as additional authenticated data.
 */
export function localSealer(keyHex: string): Sealer {
  if (!/^[0-9a-fA-F]{64}$/.test(keyHex)) throw new Error('the data encryption key must be 32 bytes as hex');
  const key = Buffer.from(keyHex, 'hex');
  if (key.length !== KEY_BYTES) throw new Error('the data encryption key must be 32 bytes');
  return {
    async seal(plaintext, context) {
      const { iv, tag, ciphertext } = gcmEncrypt(key, plaintext, context);
      return joinSealed(LOCAL_SEALED_PREFIX, [iv, tag, ciphertext]);
    },
    async open(sealed, context) {
      const [iv, tag, ciphertext] = splitSealed(sealed, LOCAL_SEALED_PREFIX, 3) as [Buffer, Buffer, Buffer];
      return gcmDecrypt(key, { iv, tag, ciphertext }, context);
    },
  };
}

/** Where neither DATA_KEY_ID nor DATA_ENCRYPTION_KEY is set: sealing fails (500), nothing is stored in clear. */
export const missingKeySealer: Sealer = {
  seal: () => Promise.reject(new Error('no data key configured (DATA_KEY_ID or DATA_ENCRYPTION_KEY)')),
  open: () => Promise.reject(new Error('no data key configured (DATA_KEY_ID or DATA_ENCRYPTION_KEY)')),
};
