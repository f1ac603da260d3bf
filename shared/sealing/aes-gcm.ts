import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** AES-256-GCM as both sealers use it: a 32-byte key, a fresh 96-bit IV per value, a 128-bit tag. */
export const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const ALGORITHM = 'aes-256-gcm';

export interface GcmBox {
  iv: Buffer;
  tag: Buffer;
  ciphertext: Buffer;
}

/** Encrypts `plaintext` under `key`, binding `aad` (the sealing context): opening needs the same aad. */
export function gcmEncrypt(key: Buffer, plaintext: string, aad: string): GcmBox {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return { iv, tag: cipher.getAuthTag(), ciphertext };
}

/** Throws if the ciphertext, tag, iv or aad differ from what was sealed. */
export function gcmDecrypt(key: Buffer, box: GcmBox, aad: string): string {
  if (box.iv.length !== IV_BYTES || box.tag.length !== TAG_BYTES) throw new SealedFormatError('bad iv or tag length');
  const decipher = createDecipheriv(ALGORITHM, key, box.iv, { authTagLength: TAG_BYTES });
  decipher.setAAD(Buffer.from(aad, 'utf8'));
  decipher.setAuthTag(box.tag);
  return Buffer.concat([decipher.update(box.ciphertext), decipher.final()]).toString('utf8');
}

/** A sealed text that is not one this sealer wrote (another version or sealer, or truncated). */
export class SealedFormatError extends Error {
  constructor(why: string) {
    super(`not a sealed value of this sealer: ${why}`);
    this.name = 'SealedFormatError';
  }
}

const SEPARATOR = '.';

/** `<prefix>.<segment>.<segment>...`, each segment base64url. */
export function joinSealed(prefix: string, segments: Buffer[]): string {
  return [prefix, ...segments.map((segment) => segment.toString('base64url'))].join(SEPARATOR);
}

/** The segments of a sealed text with exactly `count` segments after `prefix`. */
export function splitSealed(sealed: string, prefix: string, count: number): Buffer[] {
  const parts = sealed.split(SEPARATOR);
  if (parts[0] !== prefix) throw new SealedFormatError(`expected prefix ${prefix}`);
  if (parts.length !== count + 1 || parts.slice(1).some((part) => !/^[A-Za-z0-9_-]*$/.test(part)))
    throw new SealedFormatError('malformed');
  return parts.slice(1).map((part) => Buffer.from(part, 'base64url'));
}
