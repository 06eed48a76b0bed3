import { nextBillingDate, prorate, shiftByIntervals } from './billing-periods';

const at = (iso: string) => Date.parse(iso) / 1000;
const monthly = { interval: 'month', interval_count: 1 } as const;

describe('shiftByIntervals', () => {
  it.each([
    ['2026-01-31T10:00:00Z', 1, '2026-02-28T10:00:00Z'],
    ['2026-01-31T10:00:00Z', 2, '2026-03-31T10:00:00Z'],
    ['2024-01-31T00:00:00Z', 1, '2024-02-29T00:00:00Z'],
    ['2026-12-15T00:00:00Z', 1, '2027-01-15T00:00:00Z'],
    ['2026-03-31T00:00:00Z', -1, '2026-02-28T00:00:00Z'],
  ])('when the anchor is %s and n is %d, then the date is %s', (anchor, n, expected) => {
    expect(shiftByIntervals(at(anchor), monthly, n)).toBe(at(expected));
  });

  it('when the interval is a year, then a leap day lands on 28 February', () => {
    expect(shiftByIntervals(at('2024-02-29T00:00:00Z'), { interval: 'year', interval_count: 1 }, 1)).toBe(at('2025-02-28T00:00:00Z'));
  });

  it('when the interval is two weeks, then it is 14 days', () => {
    expect(shiftByIntervals(0, { interval: 'week', interval_count: 2 }, 1)).toBe(14 * 86_400);
  });
});

describe('nextBillingDate', () => {
  it('when the anchor is later, then it is the anchor', () => {
    expect(nextBillingDate(100, monthly, 50)).toBe(100);
  });

  it('when `after` is on a billing date, then it is the next one', () => {
    const anchor = at('2026-01-31T00:00:00Z');
    expect(nextBillingDate(anchor, monthly, at('2026-02-28T00:00:00Z'))).toBe(at('2026-03-31T00:00:00Z'));
  });

  it('when a daily price is years past its anchor, then it finds the next day', () => {
    expect(nextBillingDate(0, { interval: 'day', interval_count: 1 }, 86_400 * 3000 + 5)).toBe(86_400 * 3001);
  });
});

describe('prorate', () => {
  it.each([
    [1000, 50, 500],
    [1000, 0, 1000],
    [1000, 100, 0],
    [999, 50, 500],
  ])('when %d is due and %d of 100 seconds have passed, then %d is left', (amount, from, expected) => {
    expect(prorate(amount, from, { start: 0, end: 100 })).toBe(expected);
  });
});
