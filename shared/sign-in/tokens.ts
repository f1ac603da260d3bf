import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** 32 random bytes, base64url: a session's cookie secret, a CSRF token, the login-CSRF value. */
export const randomToken = (): string => randomBytes(32).toString('base64url');

/** sha256 hex: what the table keeps of a session secret, a recovery code, a challenge. */
export const sha256Hex = (value: string): string => createHash('sha256').update(value).digest('hex');

/** Constant-time equality of two strings (CSRF tokens). */
export function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
