import { COMMON_PASSWORDS } from './common-passwords.js';

export const MIN_PASSWORD_LENGTH = 12;
/** Long enough for any passphrase, short enough that scrypt's input is bounded. */
export const MAX_PASSWORD_LENGTH = 256;

/**
 * Why a new password is refused, or undefined when it is good: at least 12 characters, not the
 * email (nor its name part), not a common password (a small bundled list, compared without case,
 * digits or symbols at the ends).
 */
export function passwordProblem(password: string, email: string): string | undefined {
  if ([...password].length < MIN_PASSWORD_LENGTH)
    return `Use at least ${MIN_PASSWORD_LENGTH} characters (a few words you can remember).`;
  if (password.length > MAX_PASSWORD_LENGTH) return `Use at most ${MAX_PASSWORD_LENGTH} characters.`;
  const folded = password.toLowerCase();
  const address = email.toLowerCase();
  const name = address.split('@')[0] ?? '';
  if (
    folded === address ||
    folded.includes(address) ||
    (name.length >= 4 && folded.replace(/[^a-z]/g, '') === name.replace(/[^a-z]/g, ''))
  )
    return 'Do not use your email address as your password.';
  const core = folded.replace(/^[^a-z]+|[^a-z]+$/g, '');
  if (COMMON_PASSWORDS.has(folded) || COMMON_PASSWORDS.has(core))
    return 'This password is too common: choose one that others would not guess.';
  return undefined;
}
