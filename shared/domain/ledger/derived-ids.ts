import { ID_PREFIX, ID_RANDOM_LENGTH, type IdKind } from '../ids.js';

/**
 * Ids derived from what names a thing, not drawn at random: the journal record of an idempotent
 * movement (from the organization, environment and key), the audit entry and event projected from
 * a journal record (from the record's id). Retries and replays compute the same id, so a
 * conditional write of it is the duplicate check. SHA-256 (Web Crypto, no import), the low 24
 * base62 digits: the same length and alphabet as random ids.
 */
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const encoder = new TextEncoder();

async function digest(material: string): Promise<bigint> {
  const bytes = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', encoder.encode(material)));
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  return value;
}

function base62(value: bigint, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) {
    out = BASE62[Number(value % 62n)] + out;
    value /= 62n;
  }
  return out;
}

export async function derivedId(kind: IdKind, material: string): Promise<string> {
  return ID_PREFIX[kind] + base62(await digest(material), ID_RANDOM_LENGTH);
}

/** A fixed-length digest of a longer text (a fingerprint of request parameters): 43 base62 characters. */
export async function digestOf(text: string): Promise<string> {
  return base62(await digest(text), 43);
}
