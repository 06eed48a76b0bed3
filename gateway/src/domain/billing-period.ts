/**
 * When a subscription started at `nowMs` ends its first billing period: the start of the next UTC
 * month, so every period after it is a calendar month, as quota months are; undefined when it
 * starts at a month's very start (its first period is a whole month already).
 */
export function firstPeriodEnd(nowMs: number): number | undefined {
  const d = new Date(nowMs);
  const monthStart = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  return monthStart === nowMs ? undefined : Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

/**
 * What the first period of a plan taken at `nowMs` costs, and when it ends: `monthly` in proportion
 * to the part of the month left, to the second, rounded (the proration Stripe makes for a
 * `billing_cycle_anchor` on the 1st); the whole price from a month's very start.
 */
export function firstPeriodCharge(monthly: number, nowMs: number): { dueNow: number; periodEndMs: number } {
  const d = new Date(nowMs);
  const start = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  const end = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  if (firstPeriodEnd(nowMs) === undefined) return { dueNow: monthly, periodEndMs: end };
  const left = end / 1000 - Math.floor(nowMs / 1000);
  return { dueNow: Math.round((monthly * left) / ((end - start) / 1000)), periodEndMs: end };
}
