/**
 * A day's call latencies kept as counts in fixed, roughly log-spaced buckets (1 ms to 60 s), so a
 * day of any number of calls costs the same few fields and p50/p95 are read back from the counts.
 */

/** Each bucket's upper bound (ms, inclusive); a call slower than the last counts in the last. */
export const LATENCY_BOUNDS_MS: readonly number[] = Object.freeze([
  1, 2, 3, 5, 8, 13, 20, 30, 50, 80, 130, 200, 300, 500, 800, 1_300, 2_000, 3_000, 5_000, 8_000, 13_000, 20_000, 30_000, 60_000,
]);

/** The bucket a latency falls in: the first whose bound it does not exceed. */
export function latencyBucket(ms: number): number {
  const last = LATENCY_BOUNDS_MS.length - 1;
  // A linear walk: with 24 bounds and most calls in the first dozen it beats a binary search, and allocates nothing.
  for (let i = 0; i < last; i++) if (ms <= LATENCY_BOUNDS_MS[i]!) return i;
  return last;
}

/**
 * The `p`-th percentile (0 < p ≤ 1) of the latencies counted, as the upper bound of the bucket the
 * call of that rank fell in (so "p95 ≤ 80 ms"); null when nothing was counted.
 */
export function latencyPercentile(counts: readonly number[], p: number): number | null {
  let total = 0;
  for (const c of counts) total += c;
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil(p * total));
  let seen = 0;
  for (let i = 0; i < counts.length; i++) {
    seen += counts[i] ?? 0;
    if (seen >= rank) return LATENCY_BOUNDS_MS[Math.min(i, LATENCY_BOUNDS_MS.length - 1)]!;
  }
  return LATENCY_BOUNDS_MS[LATENCY_BOUNDS_MS.length - 1]!;
}
