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
