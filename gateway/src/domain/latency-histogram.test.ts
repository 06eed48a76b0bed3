import fc from 'fast-check';
import { LATENCY_BOUNDS_MS, latencyBucket, latencyPercentile } from './latency-histogram';

const hist = (entries: Record<number, number>): number[] => LATENCY_BOUNDS_MS.map((_, i) => entries[i] ?? 0);

describe('latencyBucket', () => {
  it.each<[number, number]>([
    [0, 0],
    [0.4, 0],
    [1, 0],
    [1.01, 1],
    [2, 1],
    [4, 3],
    [80, 9],
    [80.5, 10],
    [59_999, 23],
    [60_000, 23],
    [3_600_000, 23],
  ])('when a call took %f ms, then it counts in bucket %i', (ms, bucket) => {
    expect(latencyBucket(ms)).toBe(bucket);
  });

  it('when any latency is counted, then its bucket is the first whose bound holds it', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 120_000, noNaN: true }), (ms) => {
        const i = latencyBucket(ms);
        expect(ms <= LATENCY_BOUNDS_MS[i]! || i === LATENCY_BOUNDS_MS.length - 1).toBe(true);
        if (i > 0) expect(ms).toBeGreaterThan(LATENCY_BOUNDS_MS[i - 1]!);
      }),
    );
  });
});

describe('latencyPercentile', () => {
  it.each<[string, number[], number, number | null]>([
    ['nothing counted', hist({}), 0.5, null],
    ['one call of 4 ms', hist({ 3: 1 }), 0.5, 5],
    ['one call of 4 ms, p95', hist({ 3: 1 }), 0.95, 5],
    ['50 fast, 50 slow: the median is the 50th', hist({ 0: 50, 12: 50 }), 0.5, 1],
    ['49 fast, 51 slow', hist({ 0: 49, 12: 51 }), 0.5, 300],
    ['95 fast, 5 slow: p95 is the 95th', hist({ 2: 95, 20: 5 }), 0.95, 3],
    ['94 fast, 6 slow: p95 is a slow one', hist({ 2: 94, 20: 6 }), 0.95, 13_000],
    ['all past the last bound', hist({ 23: 7 }), 0.95, 60_000],
  ])('when %s, then the percentile is read from the counts', (_label, counts, p, expected) => {
    expect(latencyPercentile(counts, p)).toBe(expected);
  });

  it('when latencies are counted, then p50 ≤ p95 and each is the bound of a bucket holding calls', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(1_000), { minLength: LATENCY_BOUNDS_MS.length, maxLength: LATENCY_BOUNDS_MS.length }), (counts) => {
        const p50 = latencyPercentile(counts, 0.5);
        const p95 = latencyPercentile(counts, 0.95);
        if (counts.every((c) => c === 0)) return expect([p50, p95]).toEqual([null, null]);
        expect(p50!).toBeLessThanOrEqual(p95!);
        for (const p of [p50!, p95!]) expect(counts[LATENCY_BOUNDS_MS.indexOf(p)]).toBeGreaterThan(0);
      }),
    );
  });
});
