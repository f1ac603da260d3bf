import { describe, expect, it } from 'vitest';
import { periodKeyOf, previousPeriodKeyOf } from '../../shared/domain/policies/policy-rules.js';

describe('period keys (UTC calendar)', () => {
  it('names the period just before: day, ISO week (across a year) and month (across a year)', () => {
    expect(previousPeriodKeyOf('DAY', new Date('2026-11-23T00:00:00.100Z'))).toBe('2026-11-22');
    expect(previousPeriodKeyOf('DAY', new Date('2026-03-01T12:00:00.000Z'))).toBe('2026-02-28');
    // 2027-01-04 is the Monday of ISO week 2027-W01; the week before is 2026-W53.
    expect(periodKeyOf('WEEK', new Date('2027-01-04T00:00:00.000Z'))).toBe('2027-W01');
    expect(previousPeriodKeyOf('WEEK', new Date('2027-01-10T23:59:59.999Z'))).toBe('2026-W53');
    expect(previousPeriodKeyOf('WEEK', new Date('2026-11-23T00:00:00.000Z'))).toBe(
      periodKeyOf('WEEK', new Date('2026-11-22T23:59:59.999Z')),
    );
    expect(previousPeriodKeyOf('MONTH', new Date('2027-01-01T00:00:00.000Z'))).toBe('2026-12');
    expect(previousPeriodKeyOf('MONTH', new Date('2026-03-31T10:00:00.000Z'))).toBe('2026-02');
  });
});
