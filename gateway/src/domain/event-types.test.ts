import { crossingCount, usageOutcome } from './event-types';

describe('crossingCount', () => {
  it.each([
    [1000, 80, 800],
    [1000, 100, 1000],
    [5, 80, 4],
    [3, 50, 2],
    [1, 1, 1],
    [11500, 80, 9200],
  ])('when the quota is %i and the threshold %i %%, then it is reached at call %i', (quota, threshold, count) => {
    expect(crossingCount(quota, threshold)).toBe(count);
  });
});

describe('usageOutcome', () => {
  it.each([
    ['admitted', 200, 'served'],
    ['admitted', 404, 'served'],
    ['playground', 200, 'served'],
    ['refunded', 502, 'upstream_error'],
    ['refunded', 504, 'upstream_error'],
    ['refunded', 503, 'upstream_error'],
    ['refunded', 499, 'refunded'],
    ['refunded', 200, 'refunded'],
    ['rate_limited', 429, 'rate_limited'],
    ['quota_exceeded', 429, 'quota_exceeded'],
    ['no_subscription', 402, 'no_subscription'],
    ['playground_exhausted', 402, 'no_subscription'],
    ['revoked', 401, 'refused'],
    ['suspended', 403, 'refused'],
    ['store_unavailable', 503, 'store_unavailable'],
  ])('when the decision is %s and the status %i, then the outcome is %s', (decision, status, outcome) => {
    expect(usageOutcome(decision, status)).toBe(outcome);
  });
});
