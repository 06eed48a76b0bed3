import fc from 'fast-check';
import { firstPeriodCharge, firstPeriodEnd } from './billing-period';

describe('firstPeriodEnd', () => {
  it.each([
    ['mid-month', '2026-03-16T12:00:00Z', '2026-04-01T00:00:00.000Z'],
    ['the last second of a year', '2026-12-31T23:59:59Z', '2027-01-01T00:00:00.000Z'],
    ['a day into a leap February', '2028-02-01T00:00:01Z', '2028-03-01T00:00:00.000Z'],
  ])('when a subscription starts %s, then its first period ends on the first of the next month', (_name, start, end) => {
    expect(new Date(firstPeriodEnd(Date.parse(start))!).toISOString()).toBe(end);
  });

  it('when it starts at a month’s very start, then its first period is a whole month (no anchor)', () => {
    expect(firstPeriodEnd(Date.parse('2026-03-01T00:00:00Z'))).toBeUndefined();
  });

  it('for any start, then the end is a month’s first midnight after it and at most 31 days away (Stripe takes an anchor up to one interval ahead)', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.parse('2000-01-01T00:00:00Z'), max: Date.parse('2100-01-01T00:00:00Z') }), (start) => {
        const end = firstPeriodEnd(start);
        if (end === undefined) return;
        const d = new Date(end);
        expect([d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds()]).toEqual([1, 0, 0, 0, 0]);
        expect(end).toBeGreaterThan(start);
        expect(end - start).toBeLessThanOrEqual(31 * 86_400_000);
      }),
    );
  });
});

describe('firstPeriodCharge', () => {
  it.each([
    ['mid-March at noon: 15.5 of 31 days', 575, '2026-03-16T12:00:00Z', 288, '2026-04-01T00:00:00.000Z'],
    ['the last second of a 30-day month', 3000, '2026-11-30T23:59:59Z', 0, '2026-12-01T00:00:00.000Z'],
    ['a month’s very start: the whole price', 950, '2026-02-01T00:00:00Z', 950, '2026-03-01T00:00:00.000Z'],
    ['half of a leap February', 2900, '2028-02-15T12:00:00Z', 1450, '2028-03-01T00:00:00.000Z'],
  ])('when a plan is taken %s, then the first charge is its share of the month, to the 1st', (_name, monthly, start, due, end) => {
    const charge = firstPeriodCharge(monthly, Date.parse(start));
    expect([charge.dueNow, new Date(charge.periodEndMs).toISOString()]).toEqual([due, end]);
  });

  it('for any start and price, then the first charge is between nothing and the whole price, and ends where the first period ends', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.parse('2000-01-01T00:00:00Z'), max: Date.parse('2100-01-01T00:00:00Z') }), fc.integer({ min: 0, max: 10_000_000 }), (start, monthly) => {
        const charge = firstPeriodCharge(monthly, start);
        expect(charge.dueNow).toBeGreaterThanOrEqual(0);
        expect(charge.dueNow).toBeLessThanOrEqual(monthly);
        expect(charge.periodEndMs).toBe(firstPeriodEnd(start) ?? charge.periodEndMs);
        expect(charge.periodEndMs).toBeGreaterThan(start);
      }),
    );
  });
});
