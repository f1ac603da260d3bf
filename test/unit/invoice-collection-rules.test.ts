import { describe, expect, it } from 'vitest';
import {
  achSettlesAt,
  addCalendarMonths,
  afterChargeFailure,
  calendarChargeAt,
  INVOICE_ACH_SETTLEMENT_MS,
  MAX_CHARGE_RETRIES,
  recurringChargeAt,
  runsBefore,
} from '../../shared/domain/invoices/invoice-collection-rules.js';
import { RAIL_SETTLEMENT_MS } from '../../shared/domain/transfers/transfer-rules.js';

const at = (iso: string) => new Date(iso);

describe('ACH settlement of an invoice payment', () => {
  it('takes the transfer rail ACH time, divided by TIME_SCALE in the sandbox only', () => {
    expect(INVOICE_ACH_SETTLEMENT_MS).toBe(RAIL_SETTLEMENT_MS.ACH);
    expect(achSettlesAt('SANDBOX', at('2026-11-27T10:00:00.000Z'), 60)).toBe('2026-11-27T10:00:03.000Z');
    expect(achSettlesAt('PRODUCTION', at('2026-11-27T10:00:00.000Z'), 60)).toBe('2026-11-27T10:03:00.000Z');
  });

  it('never settles sooner than a second', () => {
    expect(achSettlesAt('SANDBOX', at('2026-11-27T10:00:00.000Z'), 10_000_000)).toBe('2026-11-27T10:00:01.000Z');
  });
});

describe('recurring schedule', () => {
  it('counts calendar months from the anchor, clamping the day to the month end without drifting', () => {
    const jan31 = at('2026-01-31T09:30:00.000Z');
    expect(addCalendarMonths(jan31, 1).toISOString()).toBe('2026-02-28T09:30:00.000Z');
    expect(addCalendarMonths(jan31, 2).toISOString()).toBe('2026-03-31T09:30:00.000Z');
    expect(addCalendarMonths(at('2027-11-30T00:00:00.000Z'), 3).toISOString()).toBe('2028-02-29T00:00:00.000Z');
    expect(addCalendarMonths(at('2026-12-15T00:00:00.000Z'), 1).toISOString()).toBe('2027-01-15T00:00:00.000Z');
  });

  it('places each run: weekly by 7 days, monthly, quarterly and yearly by calendar months', () => {
    const anchor = at('2026-01-31T12:00:00.000Z');
    expect(calendarChargeAt('weekly', anchor, 1).toISOString()).toBe('2026-01-31T12:00:00.000Z');
    expect(calendarChargeAt('weekly', anchor, 3).toISOString()).toBe('2026-02-14T12:00:00.000Z');
    expect(calendarChargeAt('monthly', anchor, 2).toISOString()).toBe('2026-02-28T12:00:00.000Z');
    expect(calendarChargeAt('monthly', anchor, 3).toISOString()).toBe('2026-03-31T12:00:00.000Z');
    expect(calendarChargeAt('quarterly', anchor, 2).toISOString()).toBe('2026-04-30T12:00:00.000Z');
    expect(calendarChargeAt('yearly', at('2028-02-29T00:00:00.000Z'), 2).toISOString()).toBe(
      '2029-02-28T00:00:00.000Z',
    );
    expect(() => calendarChargeAt('weekly', anchor, 0)).toThrow();
  });

  it('divides the calendar distance by TIME_SCALE in the sandbox, not in production', () => {
    const anchor = at('2026-11-27T10:00:00.000Z');
    // One week = 604,800 s: at TIME_SCALE 604,800 a week is one second.
    expect(recurringChargeAt('SANDBOX', 'weekly', anchor, 2, 604_800)).toBe('2026-11-27T10:00:01.000Z');
    expect(recurringChargeAt('SANDBOX', 'weekly', anchor, 3, 604_800)).toBe('2026-11-27T10:00:02.000Z');
    expect(recurringChargeAt('PRODUCTION', 'weekly', anchor, 2, 604_800)).toBe('2026-12-04T10:00:00.000Z');
    // Nov 27 to Dec 27: 30 days, 2,592,000 s.
    expect(recurringChargeAt('SANDBOX', 'monthly', anchor, 2, 2_592_000)).toBe('2026-11-27T10:00:01.000Z');
    expect(recurringChargeAt('SANDBOX', 'monthly', anchor, 1, 60)).toBe(anchor.toISOString());
  });

  it('runs a charge due at or before endAt, none after it', () => {
    expect(runsBefore('2026-12-04T10:00:00.000Z', undefined)).toBe(true);
    expect(runsBefore('2026-12-04T10:00:00.000Z', '2026-12-04T10:00:00.000Z')).toBe(true);
    expect(runsBefore('2026-12-04T10:00:00.001Z', '2026-12-04T10:00:00.000Z')).toBe(false);
  });
});

describe('retry plan of a declined charge', () => {
  const first = at('2026-11-27T10:00:00.000Z');

  it('retries 3 times, 1, 3 and 7 days after the first failure, then gives up', () => {
    expect(MAX_CHARGE_RETRIES).toBe(3);
    expect(afterChargeFailure('PRODUCTION', first, 1, 60)).toEqual({ retry: 1, at: '2026-11-28T10:00:00.000Z' });
    expect(afterChargeFailure('PRODUCTION', first, 2, 60)).toEqual({ retry: 2, at: '2026-11-30T10:00:00.000Z' });
    expect(afterChargeFailure('PRODUCTION', first, 3, 60)).toEqual({ retry: 3, at: '2026-12-04T10:00:00.000Z' });
    expect(afterChargeFailure('PRODUCTION', first, 4, 60)).toEqual({ uncollectible: true });
    expect(() => afterChargeFailure('PRODUCTION', first, 0, 60)).toThrow();
  });

  it('scales the plan in the sandbox and keeps the retries in order at any TIME_SCALE', () => {
    expect(afterChargeFailure('SANDBOX', first, 1, 86_400)).toEqual({ retry: 1, at: '2026-11-27T10:00:01.000Z' });
    expect(afterChargeFailure('SANDBOX', first, 3, 86_400)).toEqual({ retry: 3, at: '2026-11-27T10:00:07.000Z' });
    const huge = [1, 2, 3].map((n) => {
      const next = afterChargeFailure('SANDBOX', first, n, 1e9);
      return 'at' in next ? Date.parse(next.at) : NaN;
    });
    expect(huge[0]).toBeLessThanOrEqual(huge[1]!);
    expect(huge[1]).toBeLessThanOrEqual(huge[2]!);
  });
});
