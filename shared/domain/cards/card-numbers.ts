/**
 * Card numbers (decisions.md section 5): sandbox cards are 16-digit Visa numbers with the BIN
 * 400000, valid under the Luhn checksum (ISO/IEC 7812-1), so a merchant's form accepts them.
 */
export const SANDBOX_BIN = '400000';
export const CARD_NUMBER_LENGTH = 16;
export const CVC_LENGTH = 3;
/** Sandbox cards expire three years after issue (decisions.md section 5). */
export const CARD_VALIDITY_YEARS = 3;

/** The Luhn sum of `digits` as if a check digit followed them. */
function luhnSum(digits: string, withCheckDigit: boolean): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    // Counted from the right: the check digit is position 0 (not doubled).
    const fromRight = digits.length - 1 - i + (withCheckDigit ? 0 : 1);
    let digit = Number(digits[i]);
    if (fromRight % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum;
}

/** The digit that makes `payload` + digit Luhn-valid. */
export function luhnCheckDigit(payload: string): string {
  if (!/^\d+$/.test(payload)) throw new Error('a card number payload is digits only');
  return String((10 - (luhnSum(payload, false) % 10)) % 10);
}

export function isLuhnValid(number: string): boolean {
  return /^\d{2,19}$/.test(number) && luhnSum(number, true) % 10 === 0;
}

/** A uniformly random decimal digit (the CSPRNG is passed in, so tests can fix it). */
export type RandomDigit = () => number;

function randomDigits(count: number, digit: RandomDigit): string {
  let out = '';
  for (let i = 0; i < count; i++) out += String(digit());
  return out;
}

/**
 * BIN 400000, nine random digits, the Luhn check digit: 10^9 numbers, so sandbox numbers are not
 * unique (two among n cards share one with probability about n^2 / 2e9). Nothing is looked up by
 * number (cards are named by id everywhere), so no guard is kept (docs/api.md "The issuer port").
 */
export function sandboxCardNumber(digit: RandomDigit): string {
  const payload = SANDBOX_BIN + randomDigits(CARD_NUMBER_LENGTH - SANDBOX_BIN.length - 1, digit);
  return payload + luhnCheckDigit(payload);
}

export function randomCvc(digit: RandomDigit): string {
  return randomDigits(CVC_LENGTH, digit);
}

/** Expiry three years out: the same month, as the networks print it (valid through its last day). */
export function expiryOf(issuedAt: Date): { expMonth: number; expYear: number } {
  return { expMonth: issuedAt.getUTCMonth() + 1, expYear: issuedAt.getUTCFullYear() + CARD_VALIDITY_YEARS };
}
