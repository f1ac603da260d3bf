import { randomBytes } from 'node:crypto';
import {
  DecryptCommand,
  GenerateDataKeyCommand,
  InvalidCiphertextException,
  KMSClient,
  KMSServiceException,
} from '@aws-sdk/client-kms';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { KMS_SEALED_PREFIX, kmsSealer } from '../../shared/sealing/kms-sealer.js';
import { LOCAL_SEALED_PREFIX, localSealer, missingKeySealer } from '../../shared/sealing/local-sealer.js';

const ACCOUNT_NUMBER = '000123456789';
const KEY_ID = 'arn:aws:kms:us-east-1:111122223333:key/11111111-2222-3333-4444-555555555555';

/** Flips one bit of the segment `index` (after the prefix) of a sealed text. */
function tamper(sealed: string, index: number): string {
  const parts = sealed.split('.');
  const bytes = Buffer.from(parts[index + 1]!, 'base64url');
  bytes[0] = bytes[0]! ^ 0x01;
  parts[index + 1] = bytes.toString('base64url');
  return parts.join('.');
}

describe('local sealer (AES-256-GCM under DATA_ENCRYPTION_KEY)', () => {
  const sealer = localSealer(randomBytes(32).toString('hex'));

  it('seals to a versioned text without the plaintext, and opens it under the same context', async () => {
    const sealed = await sealer.seal(ACCOUNT_NUMBER, 'ba_1');
    expect(sealed.startsWith(`${LOCAL_SEALED_PREFIX}.`)).toBe(true);
    expect(sealed).not.toContain(ACCOUNT_NUMBER);
    expect(sealed).not.toContain(Buffer.from(ACCOUNT_NUMBER).toString('base64url'));
    expect(await sealer.open(sealed, 'ba_1')).toBe(ACCOUNT_NUMBER);
  });

  it('uses a fresh IV each time: the same value seals differently', async () => {
    expect(await sealer.seal(ACCOUNT_NUMBER, 'ba_1')).not.toBe(await sealer.seal(ACCOUNT_NUMBER, 'ba_1'));
  });

  it('refuses another context, a tampered iv, tag or ciphertext, another key and a foreign format', async () => {
    const sealed = await sealer.seal(ACCOUNT_NUMBER, 'ba_1');
    await expect(sealer.open(sealed, 'ba_2')).rejects.toThrow();
    for (const segment of [0, 1, 2]) await expect(sealer.open(tamper(sealed, segment), 'ba_1')).rejects.toThrow();
    await expect(localSealer(randomBytes(32).toString('hex')).open(sealed, 'ba_1')).rejects.toThrow();
    await expect(sealer.open(sealed.replace(LOCAL_SEALED_PREFIX, KMS_SEALED_PREFIX), 'ba_1')).rejects.toThrow(
      /not a sealed value/,
    );
    await expect(sealer.open(`${sealed}.extra`, 'ba_1')).rejects.toThrow(/not a sealed value/);
    await expect(sealer.open(ACCOUNT_NUMBER, 'ba_1')).rejects.toThrow(/not a sealed value/);
  });

  it('seals empty and non-ASCII text', async () => {
    for (const value of ['', 'Zoë 4242 ✓'])
      expect(await sealer.open(await sealer.seal(value, 'ctx'), 'ctx')).toBe(value);
  });

  it('refuses a key that is not 32 bytes as hex', () => {
    expect(() => localSealer('ab'.repeat(31))).toThrow();
    expect(() => localSealer('zz'.repeat(32))).toThrow();
  });

  it('without a configured key, seals nothing', async () => {
    await expect(missingKeySealer.seal(ACCOUNT_NUMBER, 'ba_1')).rejects.toThrow(/no data key configured/);
  });
});

describe('KMS sealer (envelope encryption under DATA_KEY_ID)', () => {
  const kms = mockClient(KMSClient);
  /** A stand-in for KMS: wrapped keys are opaque handles, unwrapped only under the context they were made with. */
  let wrapped: Map<string, { key: Buffer; context: Record<string, string> | undefined; keyId: string | undefined }>;

  beforeEach(() => {
    kms.reset();
    wrapped = new Map();
    kms.on(GenerateDataKeyCommand).callsFake((input) => {
      const key = randomBytes(32);
      const blob = randomBytes(48);
      wrapped.set(blob.toString('hex'), {
        key: Buffer.from(key),
        context: input.EncryptionContext,
        keyId: input.KeyId,
      });
      return { Plaintext: new Uint8Array(key), CiphertextBlob: new Uint8Array(blob), KeyId: input.KeyId };
    });
    kms.on(DecryptCommand).callsFake((input) => {
      const entry = wrapped.get(Buffer.from(input.CiphertextBlob).toString('hex'));
      if (
        !entry ||
        entry.keyId !== input.KeyId ||
        JSON.stringify(entry.context) !== JSON.stringify(input.EncryptionContext)
      ) {
        throw new InvalidCiphertextException({
          message:
            'The ciphertext refers to a customer master key that does not exist, or the encryption context does not match.',
          $metadata: {},
        });
      }
      return { Plaintext: new Uint8Array(entry.key), KeyId: input.KeyId };
    });
  });

  const sealer = () => kmsSealer(new KMSClient({ region: 'us-east-1' }), KEY_ID);

  it('asks for one AES-256 data key per seal, under the key and the context, and stores only the wrapped key', async () => {
    const sealed = await sealer().seal(ACCOUNT_NUMBER, 'ba_1');
    const calls = kms.commandCalls(GenerateDataKeyCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args[0].input).toEqual({
      KeyId: KEY_ID,
      KeySpec: 'AES_256',
      EncryptionContext: { context: 'ba_1' },
    });
    expect(sealed.startsWith(`${KMS_SEALED_PREFIX}.`)).toBe(true);
    const segments = sealed
      .split('.')
      .slice(1)
      .map((part) => Buffer.from(part, 'base64url'));
    expect(segments).toHaveLength(4);
    expect(wrapped.has(segments[0]!.toString('hex'))).toBe(true);
    // Neither the plaintext nor the data key is in the sealed text.
    const { key } = [...wrapped.values()][0]!;
    expect(sealed).not.toContain(ACCOUNT_NUMBER);
    expect(Buffer.from(sealed).includes(key)).toBe(false);
    expect(sealed).not.toContain(key.toString('base64url'));
  });

  it('opens with one Decrypt under the same key id and context', async () => {
    const sealed = await sealer().seal(ACCOUNT_NUMBER, 'ba_1');
    expect(await sealer().open(sealed, 'ba_1')).toBe(ACCOUNT_NUMBER);
    const calls = kms.commandCalls(DecryptCommand);
    expect(calls).toHaveLength(1);
    const input = calls[0]!.args[0].input;
    expect(input.KeyId).toBe(KEY_ID);
    expect(input.EncryptionContext).toEqual({ context: 'ba_1' });
    expect(Buffer.from(input.CiphertextBlob!).toString('base64url')).toBe(sealed.split('.')[1]);
  });

  it('seals each value under its own data key', async () => {
    await sealer().seal(ACCOUNT_NUMBER, 'ba_1');
    await sealer().seal(ACCOUNT_NUMBER, 'ba_1');
    expect(kms.commandCalls(GenerateDataKeyCommand)).toHaveLength(2);
    expect(wrapped.size).toBe(2);
  });

  it('refuses another context (KMS refuses to unwrap the key)', async () => {
    const sealed = await sealer().seal(ACCOUNT_NUMBER, 'ba_1');
    await expect(sealer().open(sealed, 'ba_2')).rejects.toBeInstanceOf(InvalidCiphertextException);
  });

  it('refuses a tampered ciphertext, tag or iv even though KMS unwraps the key', async () => {
    const sealed = await sealer().seal(ACCOUNT_NUMBER, 'ba_1');
    for (const segment of [1, 2, 3]) await expect(sealer().open(tamper(sealed, segment), 'ba_1')).rejects.toThrow();
    // A tampered wrapped key is refused by KMS.
    await expect(sealer().open(tamper(sealed, 0), 'ba_1')).rejects.toBeInstanceOf(InvalidCiphertextException);
  });

  it('surfaces a failure of Decrypt or GenerateDataKey as an error (never a value)', async () => {
    const sealed = await sealer().seal(ACCOUNT_NUMBER, 'ba_1');
    kms
      .on(DecryptCommand)
      .rejects(
        new KMSServiceException({ name: 'KMSInternalException', $fault: 'server', message: 'internal', $metadata: {} }),
      );
    await expect(sealer().open(sealed, 'ba_1')).rejects.toThrow('internal');
    kms
      .on(GenerateDataKeyCommand)
      .rejects(
        new KMSServiceException({ name: 'AccessDeniedException', $fault: 'client', message: 'denied', $metadata: {} }),
      );
    await expect(sealer().seal(ACCOUNT_NUMBER, 'ba_1')).rejects.toThrow('denied');
  });

  it('refuses a value sealed by the local sealer, or malformed', async () => {
    const local = await localSealer(randomBytes(32).toString('hex')).seal(ACCOUNT_NUMBER, 'ba_1');
    await expect(sealer().open(local, 'ba_1')).rejects.toThrow(/not a sealed value/);
    await expect(sealer().open(`${KMS_SEALED_PREFIX}.AA.BB`, 'ba_1')).rejects.toThrow(/not a sealed value/);
    expect(kms.commandCalls(DecryptCommand)).toHaveLength(0);
  });
});
