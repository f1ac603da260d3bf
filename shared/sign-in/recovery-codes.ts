import { randomBytes } from 'node:crypto';
import { sha256Hex } from './tokens.js';
import { RECOVERY_CODE_COUNT } from '../domain/sign-in/types.js';

const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** One code: 12 characters of an unambiguous alphabet (about 59 bits) in three groups, `abcd-efgh-jkmn`. */
function recoveryCode(): string {
  const bytes = randomBytes(24);
  let out = '';
  for (const byte of bytes) {
    if (byte >= 248) continue;
    out += ALPHABET[byte % ALPHABET.length];
    if (out.length === 12) break;
  }
  return out.length === 12 ? `${out.slice(0, 4)}-${out.slice(4, 8)}-${out.slice(8)}` : recoveryCode();
}

/** Lower case, no spaces or dashes: how a code is compared. */
export const foldRecoveryCode = (code: string): string => code.toLowerCase().replace(/[\s-]+/g, '');

/** Ten new codes (shown once) and their hashes (stored). */
export function newRecoveryCodes(): { codes: string[]; hashes: string[] } {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, recoveryCode);
  return { codes, hashes: codes.map((code) => sha256Hex(foldRecoveryCode(code))) };
}

/** The stored hash a code matches, if any (each is used once: the caller removes it). */
export function matchRecoveryCode(code: string, hashes: readonly string[]): string | undefined {
  const folded = foldRecoveryCode(code);
  if (folded.length !== 12) return undefined;
  const hash = sha256Hex(folded);
  return hashes.find((candidate) => candidate === hash);
}
