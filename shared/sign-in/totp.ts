import { generateSecret, generateURI, verifySync } from 'otplib';

/** The issuer authenticator apps show next to the account. */
export const TOTP_ISSUER = 'Allowance';

/** A new TOTP secret (base32, 160 bits), shown once at enrolment, stored sealed. */
export const newTotpSecret = (): string => generateSecret();

/**
 * A TOTP secret a client may post back: base32, 26 to 64 characters (at least 16 bytes, what otplib
 * accepts; newTotpSecret makes 32). Anything else is refused, never checked nor echoed on a page.
 */
export const validTotpSecret = (secret: string): boolean => /^[A-Z2-7]{26,64}$/.test(secret);

/** The `otpauth://` link (and the QR code's content) of a secret. */
export const totpUri = (secret: string, email: string): string =>
  generateURI({ issuer: TOTP_ISSUER, label: email, secret });

/** Six digits, spaces allowed (as apps show them). */
export const normalizeCode = (code: string): string => code.replace(/\s+/g, '');

/**
 * Checks a code at `now` (one 30-second step of drift either way) and answers the time step it
 * was for, or undefined. A step at or before `lastStep` is refused: a code is good once.
 */
export function checkTotp(secret: string, code: string, now: Date, lastStep?: number): number | undefined {
  const token = normalizeCode(code);
  if (!/^\d{6}$/.test(token)) return undefined;
  const result = verifySync({
    secret,
    token,
    epoch: Math.floor(now.getTime() / 1000),
    epochTolerance: 30,
    ...(lastStep === undefined ? {} : { afterTimeStep: lastStep }),
  });
  return result.valid && 'timeStep' in result ? result.timeStep : undefined;
}
