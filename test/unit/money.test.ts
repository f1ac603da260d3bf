import Big from 'big.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../shared/domain/errors.js';
import {
  formatAmount,
  formatBalance,
  parseAmount,
  roundToCents,
  type ParseAmountOptions,
} from '../../shared/domain/money.js';

const MAX_CENTS = 100_000_000_000; // 1,000,000,000.00 in cents

function parseError(input: unknown, options?: ParseAmountOptions): ApiError {
  try {
    parseAmount(input, options);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error(`parseAmount accepted ${String(input)}`);
}

function expectInvalidAmount(input: unknown, options?: ParseAmountOptions): void {
  const error = parseError(input, options);
  expect(error.code).toBe('INVALID_AMOUNT');
  expect(error.status).toBe(400);
  expect(error.details?.field).toBe(options?.field ?? 'amount');
}

describe('parseAmount', () => {
  describe('JSON numbers', () => {
    it('reads 0.1 through its decimal text, not its binary value', () => {
      // Prepare / Act
      const amount = parseAmount(0.1);
      // Assess
      expect(amount.eq(new Big('0.1'))).toBe(true);
      expect(formatAmount(amount)).toBe('0.10');
    });

    it('accepts an integral number and a two-decimal number', () => {
      expect(parseAmount(10).eq(new Big('10'))).toBe(true);
      expect(parseAmount(123456789.12).eq(new Big('123456789.12'))).toBe(true);
    });

    it('rejects 1e21 (exponent notation and above the maximum)', () => {
      expectInvalidAmount(1e21);
    });

    it('rejects a tiny number whose text uses an exponent', () => {
      expectInvalidAmount(1e-7);
    });

    it('rejects negative zero', () => {
      expectInvalidAmount(-0);
      expectInvalidAmount(-0, { allowNegative: true });
    });

    it('rejects 1.005 because it has three decimals', () => {
      expectInvalidAmount(1.005);
    });

    it('rejects NaN, Infinity and -Infinity', () => {
      expectInvalidAmount(Number.NaN);
      expectInvalidAmount(Number.POSITIVE_INFINITY);
      expectInvalidAmount(Number.NEGATIVE_INFINITY, { allowNegative: true });
    });

    it('rejects a number when numbers are not allowed', () => {
      expectInvalidAmount(10, { allowNumber: false });
      expect(parseAmount('10', { allowNumber: false }).eq(10)).toBe(true);
    });
  });

  describe('decimal strings', () => {
    it('treats 10, "10" and "10.00" as the same amount', () => {
      const values = [parseAmount(10), parseAmount('10'), parseAmount('10.00')];
      for (const value of values) expect(value.eq(new Big('10'))).toBe(true);
      expect(values.map((v) => formatAmount(v))).toEqual(['10.00', '10.00', '10.00']);
    });

    it.each([' 10', '10 ', '1 0', '10\n', '\t10'])('rejects an amount with whitespace (%j)', (text) => {
      expectInvalidAmount(text);
    });

    it.each(['+5', '.5', '5.', '1e3', '1E3', '0x10', '', 'abc', '-', '1.2.3', '1,000.00', '٣'])(
      'rejects the malformed amount %j',
      (text) => {
        expectInvalidAmount(text);
      },
    );

    it.each([null, undefined, true, false, {}, [], ['10'], 10n])('rejects the non-amount value %s', (value) => {
      expectInvalidAmount(value);
    });

    it('rejects zero in every spelling', () => {
      for (const text of ['0', '0.00', '-0', '-0.00']) {
        expectInvalidAmount(text);
        expectInvalidAmount(text, { allowNegative: true });
      }
    });

    it('rejects an amount with three decimals for USD', () => {
      expectInvalidAmount('1.005');
      expectInvalidAmount('1.000');
    });

    it('accepts up to six decimals for USDC and rejects seven', () => {
      expect(parseAmount('0.000001', { currency: 'USDC' }).eq(new Big('0.000001'))).toBe(true);
      expect(parseAmount('1.005', { currency: 'USDC' }).eq(new Big('1.005'))).toBe(true);
      expectInvalidAmount('0.0000001', { currency: 'USDC' });
    });

    it('accepts exactly the maximum of 1,000,000,000.00', () => {
      expect(parseAmount('1000000000.00').eq(new Big('1000000000'))).toBe(true);
      expect(parseAmount(1_000_000_000).eq(new Big('1000000000'))).toBe(true);
    });

    it('rejects one cent above the maximum and very large values', () => {
      expectInvalidAmount('1000000000.01');
      expectInvalidAmount('99999999999999999999');
      expectInvalidAmount('1000000000.000001', { currency: 'USDC' });
    });
  });

  describe('sign', () => {
    it('rejects a negative amount by default', () => {
      expectInvalidAmount('-5');
      expectInvalidAmount(-5);
    });

    it('accepts a non-zero negative amount when negatives are allowed', () => {
      expect(parseAmount('-5.25', { allowNegative: true }).eq(new Big('-5.25'))).toBe(true);
      expect(parseAmount(-0.1, { allowNegative: true }).eq(new Big('-0.1'))).toBe(true);
    });

    it('applies the maximum to the magnitude of a negative amount', () => {
      expect(parseAmount('-1000000000.00', { allowNegative: true }).eq(new Big('-1000000000'))).toBe(true);
      expectInvalidAmount('-1000000000.01', { allowNegative: true });
    });
  });

  describe('error', () => {
    it('is an ApiError INVALID_AMOUNT naming the field it was given', () => {
      const error = parseError('abc', { field: 'budget' });
      expect(error.code).toBe('INVALID_AMOUNT');
      expect(error.details).toEqual({ field: 'budget' });
      expect(error.message).toContain('budget');
    });
  });

  describe('round trip', () => {
    it('formats any whole number of cents back to the text it was parsed from', () => {
      fc.assert(
        fc.property(fc.integer({ min: 1, max: MAX_CENTS }), (cents) => {
          const text = new Big(cents).div(100).toFixed(2);
          expect(text).toBe((cents / 100).toFixed(2));
          expect(formatAmount(parseAmount(text))).toBe(text);
        }),
        { numRuns: 2000 },
      );
    });

    it('parses any two-decimal JSON number to the same value as its decimal text', () => {
      fc.assert(
        fc.property(fc.integer({ min: 1, max: MAX_CENTS }), (cents) => {
          const text = new Big(cents).div(100).toFixed(2);
          expect(parseAmount(Number(text)).eq(new Big(text))).toBe(true);
        }),
        { numRuns: 2000 },
      );
    });
  });
});

describe('formatBalance', () => {
  it('prints eight fractional digits', () => {
    expect(formatBalance(new Big('12.5'))).toBe('12.50000000');
    expect(formatBalance(new Big('-3'))).toBe('-3.00000000');
    expect(formatBalance(new Big('0.00000001'))).toBe('0.00000001');
  });

  it('never prints negative zero for a zero balance', () => {
    expect(formatBalance(new Big('-0'))).toBe('0.00000000');
    expect(formatBalance(new Big('5').minus('5'))).toBe('0.00000000');
  });

  it('never prints negative zero for a negative balance that rounds to zero', () => {
    expect(formatBalance(new Big('-0.000000001'))).toBe('0.00000000');
  });
});

describe('formatAmount', () => {
  it('prints two fractional digits', () => {
    expect(formatAmount(new Big('12.5'))).toBe('12.50');
    expect(formatAmount(new Big('7'))).toBe('7.00');
    expect(formatAmount(new Big('-0.25'))).toBe('-0.25');
  });

  it('never prints negative zero', () => {
    expect(formatAmount(new Big('-0'))).toBe('0.00');
    expect(formatAmount(new Big('-0.001'))).toBe('0.00');
  });

  it('keeps the decimals of a USDC amount, at least two and at most six', () => {
    expect(formatAmount(new Big('1.5'), 'USDC')).toBe('1.50');
    expect(formatAmount(new Big('1.005'), 'USDC')).toBe('1.005');
    expect(formatAmount(new Big('0.000001'), 'USDC')).toBe('0.000001');
  });
});

describe('roundToCents', () => {
  it.each([
    ['0.125', '0.13'],
    ['0.124', '0.12'],
    ['0.135', '0.14'],
    ['0.005', '0.01'],
    ['0.0049999', '0'],
    ['2.5', '2.5'],
    ['-0.125', '-0.13'],
  ])('rounds %s half-up to %s', (input, expected) => {
    expect(roundToCents(new Big(input)).eq(new Big(expected))).toBe(true);
  });

  it('rounds a fee of 0.5% exactly, without float error', () => {
    // 0.5% of 50.50 is 0.2525: half-up to the cent gives 0.25
    expect(roundToCents(new Big('50.50').times('0.005')).toFixed(2)).toBe('0.25');
    // 0.5% of 1.01 is 0.00505 -> 0.01
    expect(roundToCents(new Big('1.01').times('0.005')).toFixed(2)).toBe('0.01');
  });
});
