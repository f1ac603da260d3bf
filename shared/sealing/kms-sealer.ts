import { DecryptCommand, GenerateDataKeyCommand, type KMSClient } from '@aws-sdk/client-kms';
import type { Sealer } from '../domain/sealing.js';
import { gcmDecrypt, gcmEncrypt, joinSealed, KEY_BYTES, SealedFormatError, splitSealed } from './aes-gcm.js';

/** Version prefix of KMS envelopes: `kms1.<wrapped data key>.<iv>.<tag>.<ciphertext>` (base64url). */
export const KMS_SEALED_PREFIX = 'kms1';

/** The KMS encryption context of a sealed value: the sealing context, also logged by CloudTrail with each Decrypt. */
export const encryptionContextOf = (context: string) => ({ context });

/**
 * Envelope encryption under the stage's KMS key (DATA_KEY_ID). Each seal asks KMS for a fresh
 * AES-256 data key bound to the encryption context, encrypts locally with AES-256-GCM (context as
 * AAD too) and keeps only the wrapped key beside the ciphertext; the plaintext key is zeroed.
 * Opening asks KMS to unwrap the key under the same context: a value moved to another record
 * (another context) can not be opened, and KMS itself refuses a wrapped key of another key id.
 * The role needs kms:GenerateDataKey and kms:Decrypt on that key only (ServiceFunction.bindDataKey).
 */
export function kmsSealer(client: KMSClient, keyId: string): Sealer {
  return {
    async seal(plaintext, context) {
      const output = await client.send(
        new GenerateDataKeyCommand({
          KeyId: keyId,
          KeySpec: 'AES_256',
          EncryptionContext: encryptionContextOf(context),
        }),
      );
      if (!output.Plaintext || !output.CiphertextBlob) throw new Error('KMS GenerateDataKey returned no data key');
      const dataKey = Buffer.from(output.Plaintext);
      try {
        if (dataKey.length !== KEY_BYTES) throw new Error('KMS returned a data key of the wrong size');
        const { iv, tag, ciphertext } = gcmEncrypt(dataKey, plaintext, context);
        return joinSealed(KMS_SEALED_PREFIX, [Buffer.from(output.CiphertextBlob), iv, tag, ciphertext]);
      } finally {
        dataKey.fill(0);
        output.Plaintext.fill(0);
      }
    },
    async open(sealed, context) {
      const [wrappedKey, iv, tag, ciphertext] = splitSealed(sealed, KMS_SEALED_PREFIX, 4) as [
        Buffer,
        Buffer,
        Buffer,
        Buffer,
      ];
      // KeyId pins the key: a wrapped key of any other KMS key is refused rather than tried.
      const output = await client.send(
        new DecryptCommand({
          KeyId: keyId,
          CiphertextBlob: wrappedKey,
          EncryptionContext: encryptionContextOf(context),
        }),
      );
      if (!output.Plaintext) throw new SealedFormatError('KMS Decrypt returned no data key');
      const dataKey = Buffer.from(output.Plaintext);
      try {
        return gcmDecrypt(dataKey, { iv, tag, ciphertext }, context);
      } finally {
        dataKey.fill(0);
        output.Plaintext.fill(0);
      }
    },
  };
}
