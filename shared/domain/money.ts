import Big from 'big.js';
import { ApiError } from './errors.js';

/**
 * Money rules of decisions.md section 2. Amounts live as big.js values in code, as exact DynamoDB
 * Numbers at rest and as decimal strings on the wire. Nothing here ever does float arithmetic.
 */
export type Currency = 'USD' | 'USDC';

export const BALANCE_DECIMALS = 8;
export const AMOUNT_DECIMALS = 2;
export const MAX_FRACTION_DIGITS: Record<Currency, number> = { USD: 2, USDC: 6 };
export const MAX_AMOUNT = new Big('1000000000.00');

// Plain decimal notation only: no exponent, no spaces, no leading '+', no bare '.5' or '5.'.
const DECIMAL_TEXT = /^-?(0|[1-9]\d*)(\.\d+)?$/;

export interface ParseAmountOptions {
  currency?: Currency;
  /** adjust-budget accepts negative (non-zero) amounts. */
  allowNegative?: boolean;
  /** Whether a JSON number is accepted (funding, payments, budget adjustment). */
  allowNumber?: boolean;
  /** Field name used in the error details. */
  field?: string;
}

/**
 * Parses a client amount. A JSON number is read through its shortest decimal text (what
 * `String(n)` prints), so 0.1 is "0.1" and 1.005 is "1.005" (three decimals: rejected).
 */
export function parseAmount(input: unknown, options: ParseAmountOptions = {}): Big {
  const { currency = 'USD', allowNegative = false, allowNumber = true, field = 'amount' } = options;
  const invalid = (why: string) => new ApiError('INVALID_AMOUNT', `${field}: ${why}`, { field });

  let text: string;
  if (typeof input === 'string') {
    text = input;
  } else if (typeof input === 'number' && allowNumber) {
    if (!Number.isFinite(input)) throw invalid('must be a finite number');
    text = Object.is(input, -0) ? '0' : String(input);
  } else {
    throw invalid(allowNumber ? 'must be a decimal string or a number' : 'must be a decimal string');
  }

  if (!DECIMAL_TEXT.test(text)) throw invalid('must be a plain decimal such as "12.50"');
  const fraction = text.split('.')[1] ?? '';
  if (fraction.length > MAX_FRACTION_DIGITS[currency]) {
    throw invalid(`at most ${MAX_FRACTION_DIGITS[currency]} decimal places for ${currency}`);
  }
  const value = new Big(text);
  if (value.eq(0)) throw invalid('must not be zero');
  if (value.lt(0) && !allowNegative) throw invalid('must be positive');
  if (value.abs().gt(MAX_AMOUNT)) throw invalid(`must be at most ${MAX_AMOUNT.toFixed(AMOUNT_DECIMALS)}`);
  return value;
}

/** Wallet balances and swept amounts: 8 fractional digits. */
export function formatBalance(value: Big): string {
  return withoutNegativeZero(value.toFixed(BALANCE_DECIMALS, Big.roundHalfUp));
}

/** Payment, fee, transfer, invoice and link amounts: 2 fractional digits (USDC keeps up to 6). */
export function formatAmount(value: Big, currency: Currency = 'USD'): string {
  const decimals = currency === 'USDC' ? usdcDecimals(value) : AMOUNT_DECIMALS;
  return withoutNegativeZero(value.toFixed(decimals, Big.roundHalfUp));
}

/** Fees and percentages round half-up to the cent. */
export function roundToCents(value: Big): Big {
  return value.round(AMOUNT_DECIMALS, Big.roundHalfUp);
}

/** big.js keeps the sign of values that round to zero; money never prints as "-0.00". */
function withoutNegativeZero(text: string): string {
  return /^-0(\.0+)?$/.test(text) ? text.slice(1) : text;
}

function usdcDecimals(value: Big): number {
  const fraction = value.toFixed().split('.')[1] ?? '';
  return Math.max(AMOUNT_DECIMALS, Math.min(fraction.length, MAX_FRACTION_DIGITS.USDC));
}
