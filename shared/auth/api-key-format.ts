import { createHash, timingSafeEqual } from 'node:crypto';
import { randomBase62 } from '../domain/ids.js';
import type { IssuedKey, KeyKind } from '../domain/ports.js';

/**
 * Key format (decisions.md section 0): prefix + 32 random base62 characters (~190 bits) + a
 * 6-character checksum of them. The checksum lets the service (and secret scanners) reject a
 * mistyped key without a database lookup. Only the SHA-256 hash of the whole key is stored.
 */
export const KEY_PREFIX: Record<KeyKind, string> = {
  SANDBOX: 'svc_test_',
  PRODUCTION: 'svc_live_',
  OPERATOR: 'svc_admin_',
};

export const KEY_SECRET_LENGTH = 32;
export const KEY_CHECKSUM_LENGTH = 6;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_SHAPE = new RegExp(
  `^(svc_test_|svc_live_|svc_admin_)([0-9A-Za-z]{${KEY_SECRET_LENGTH}})([0-9A-Za-z]{${KEY_CHECKSUM_LENGTH}})$`,
);

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(text: string): number {
  let crc = 0xffffffff;
  for (let i = 0; i < text.length; i++) {
    crc = (CRC_TABLE[(crc ^ text.charCodeAt(i)) & 0xff] ?? 0) ^ (crc >>> 8);
  }
  return (crc ^ 0xffffffff) >>> 0;
}

export function checksum(secret: string): string {
  let value = crc32(secret);
  let out = '';
  for (let i = 0; i < KEY_CHECKSUM_LENGTH; i++) {
    out = BASE62[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

export function hashKey(raw: string): string {
  return createHash('sha256').update(raw, 'utf8').digest('hex');
}

export function hashesEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

export interface ParsedKey {
  kind: KeyKind;
  raw: string;
}

/** Shape and checksum check without any lookup; undefined for anything that is not one of our keys. */
export function parseKey(raw: string): ParsedKey | undefined {
  const match = KEY_SHAPE.exec(raw);
  if (!match) return undefined;
  const [, prefix, secret, sum] = match;
  if (!secret || checksum(secret) !== sum) return undefined;
  const kind = (Object.keys(KEY_PREFIX) as KeyKind[]).find((k) => KEY_PREFIX[k] === prefix);
  return kind ? { kind, raw } : undefined;
}

export function issueKey(kind: KeyKind): IssuedKey {
  const secret = randomBase62(KEY_SECRET_LENGTH);
  const raw = KEY_PREFIX[kind] + secret + checksum(secret);
  return { raw, hash: hashKey(raw), prefix: KEY_PREFIX[kind], last4: raw.slice(-4) };
}
