import { describe, expect, it } from 'vitest';
import { withThousands } from '../../shared/domain/text.js';

describe('withThousands', () => {
  it('groups digits by three with commas, as en-US does', () => {
    for (const value of [0, 7, 64, 999, 1000, 4096, 65536, 262144, 1_000_000, 1_048_576, 123_456_789, -1234567]) {
      expect(withThousands(value)).toBe(value.toLocaleString('en-US'));
    }
  });

  it('refuses what is not an integer (it would group the decimals too)', () => {
    expect(() => withThousands(1234.5678)).toThrow('formats integers');
  });
});
