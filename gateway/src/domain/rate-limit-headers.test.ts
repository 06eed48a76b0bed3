import type { AdmissionDecision } from './admission';
import type { ApiPlans } from './plans';
import { rateLimitHeaders, retryAfterSeconds } from './rate-limit-headers';

const apiPlans: ApiPlans = {
  playground_per_day: 10,
  plans: { starter: { monthly_quota: 1000, rate_per_second: 8, price: 950, currency: 'EUR' } },
};
// 2026-03-31T23:59:00Z: 60 s before April; March has 31 days = 2,678,400 s.
const now = Date.parse('2026-03-31T23:59:00Z');
const decision = (over: Partial<AdmissionDecision>): AdmissionDecision => ({ outcome: 'admitted', used: 0, secondCount: 0, ...over });

describe('rateLimitHeaders', () => {
  it('when a plan call is admitted, then both windows are described', () => {
    expect(rateLimitHeaders(decision({ plan: 'starter', used: 40, secondCount: 3 }), apiPlans, now)).toEqual({
      'X-RateLimit-Requests-Limit': '1000',
      'X-RateLimit-Requests-Remaining': '960',
      'X-RateLimit-Requests-Reset': '60',
      'RateLimit-Policy': '"second";q=8;w=1, "month";q=1000;w=2678400',
      RateLimit: '"second";r=5;t=1, "month";r=960;t=60',
    });
  });

  it('when counts are past the limits, then remaining never goes below 0', () => {
    const headers = rateLimitHeaders(decision({ outcome: 'quota_exceeded', plan: 'starter', used: 1200, secondCount: 9 }), apiPlans, now);
    expect(headers?.['X-RateLimit-Requests-Remaining']).toBe('0');
    expect(headers?.RateLimit).toBe('"second";r=0;t=1, "month";r=0;t=60');
  });

  it('when a playground call is admitted, then the day window is described', () => {
    expect(rateLimitHeaders(decision({ outcome: 'playground', used: 4 }), apiPlans, now)).toEqual({
      'X-RateLimit-Requests-Limit': '10',
      'X-RateLimit-Requests-Remaining': '6',
      'X-RateLimit-Requests-Reset': '60',
      'RateLimit-Policy': '"day";q=10;w=86400',
      RateLimit: '"day";r=6;t=60',
    });
  });

  it.each<AdmissionDecision['outcome']>(['unknown_key', 'revoked', 'no_subscription'])('when the outcome is %s, then there are no headers', (outcome) => {
    expect(rateLimitHeaders(decision({ outcome }), apiPlans, now)).toBeUndefined();
  });
});

describe('retryAfterSeconds', () => {
  it.each<[Partial<AdmissionDecision>, number]>([
    [{ outcome: 'rate_limited', plan: 'starter', secondCount: 8 }, 1],
    [{ outcome: 'quota_exceeded' }, 60],
  ])('when the decision is %j, then Retry-After is %d', (over, seconds) => {
    expect(retryAfterSeconds(decision(over), now)).toBe(seconds);
  });
});
