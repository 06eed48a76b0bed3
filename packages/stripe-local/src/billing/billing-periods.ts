import type { Recurring } from '../objects/price';

const DAY = 86_400;

/**
 * `anchor` moved by `n` intervals, in UTC. Months keep the anchor's day of the month, or the last
 * day of a shorter month (an anchor on 31 January bills on 28/29 February, then on 31 March), as
 * Stripe bills.
 */
export function shiftByIntervals(anchor: number, recurring: Pick<Recurring, 'interval' | 'interval_count'>, n: number): number {
  const count = recurring.interval_count * n;
  if (recurring.interval === 'day') return anchor + count * DAY;
  if (recurring.interval === 'week') return anchor + count * 7 * DAY;
  const date = new Date(anchor * 1000);
  const months = date.getUTCFullYear() * 12 + date.getUTCMonth() + (recurring.interval === 'year' ? 12 * count : count);
  const year = Math.floor(months / 12);
  const month = months - year * 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const shifted = Date.UTC(year, month, Math.min(date.getUTCDate(), lastDay), date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds());
  return shifted / 1000;
}

/** The first billing date after `after` on the grid the anchor sets (the anchor itself when later). */
export function nextBillingDate(anchor: number, recurring: Pick<Recurring, 'interval' | 'interval_count'>, after: number): number {
  if (anchor > after) return anchor;
  // Jump close first, so a daily price under a clock advanced by years does not loop for long.
  const approximate = Math.max(1, Math.floor((after - anchor) / (periodSeconds(recurring) * 1.02)));
  let n = approximate;
  while (n > 1 && shiftByIntervals(anchor, recurring, n - 1) > after) n -= 1;
  while (shiftByIntervals(anchor, recurring, n) <= after) n += 1;
  return shiftByIntervals(anchor, recurring, n);
}

function periodSeconds(recurring: Pick<Recurring, 'interval' | 'interval_count'>): number {
  const days = { day: 1, week: 7, month: 28, year: 365 }[recurring.interval];
  return days * DAY * recurring.interval_count;
}

/** `amount` for the part of the period [start, end) that is left at `from`, to the second, rounded. */
export function prorate(amount: number, from: number, period: { start: number; end: number }): number {
  const length = period.end - period.start;
  if (length <= 0) return 0;
  const left = Math.min(Math.max(period.end - from, 0), length);
  return Math.round((amount * left) / length);
}
