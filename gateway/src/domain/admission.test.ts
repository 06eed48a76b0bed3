import { decideAdmission } from './admission';
import type { AdmissionInput } from './admission';
import type { ApiPlans } from './plans';

const apiPlans: ApiPlans = {
  playground_per_day: 2,
  plans: { free: { monthly_quota: 5, rate_per_second: 2, price: 0, currency: 'EUR' } },
};
const noPlayground: ApiPlans = { ...apiPlans, playground_per_day: 0 };
const now = 10_000;
const active = { suspended: false, subscription: { plan: 'free', status: 'active' as const } };
const secret = { keyId: 'key_1', expiresAtMs: 0, revokedAtMs: 0, graceUntilMs: 0 };
const bare = { suspended: false };

function input(over: Partial<AdmissionInput>): AdmissionInput {
  return { secret, account: active, apiPlans, nowMs: now, secondLog: [], monthUsed: 0, dayUsed: 0, ...over };
}

describe('decideAdmission', () => {
  it.each<[string, Partial<AdmissionInput>, object]>([
    ['an unknown secret', { secret: undefined }, { outcome: 'unknown_key', used: 0 }],
    ['a secret without its account', { account: undefined }, { outcome: 'unknown_key' }],
    ['a revoked key', { secret: { ...secret, revokedAtMs: 1 } }, { outcome: 'revoked' }],
    ['a revoked key that has also expired', { secret: { ...secret, revokedAtMs: 1, expiresAtMs: 2 } }, { outcome: 'revoked' }],
    ['a key at its expiry', { secret: { ...secret, expiresAtMs: now } }, { outcome: 'expired' }],
    ['a key before its expiry', { secret: { ...secret, expiresAtMs: now + 1 } }, { outcome: 'admitted' }],
    ['a rolled secret in its grace period', { secret: { ...secret, graceUntilMs: now + 1 } }, { outcome: 'admitted' }],
    ['a rolled secret after its grace period', { secret: { ...secret, graceUntilMs: now } }, { outcome: 'rolled' }],
    ['a suspended account', { account: { ...active, suspended: true } }, { outcome: 'suspended' }],
    ['an active plan with room', {}, { outcome: 'admitted', plan: 'free', used: 1, secondCount: 1, charge: 'month' }],
    ['calls in the last second below the rate', { secondLog: [9_500] }, { outcome: 'admitted', secondCount: 2 }],
    ['the rate reached inside the rolling second', { secondLog: [9_001, 9_999] }, { outcome: 'rate_limited', secondCount: 2 }],
    ['a call exactly one second old', { secondLog: [9_000, 9_999] }, { outcome: 'admitted', secondCount: 2 }],
    ['the monthly quota used up', { monthUsed: 5 }, { outcome: 'quota_exceeded', used: 5}],
    ['both quota and rate reached', { monthUsed: 5, secondLog: [9_999, 9_999] }, { outcome: 'quota_exceeded' }],
    ['a plan that no longer exists', { account: { ...active, subscription: { plan: 'gone', status: 'active' } } }, { outcome: 'unknown_plan' }],
    ['no subscription and playground left', { account: bare, dayUsed: 1 }, { outcome: 'playground', used: 2, charge: 'day' }],
    ['an inactive subscription and playground left', { account: { ...active, subscription: { plan: 'free', status: 'inactive' } } }, { outcome: 'playground', used: 1 }],
    ['a subscription billing stopped, with playground left', { account: { ...active, subscription: { plan: 'free', status: 'inactive', lapsed: 'unpaid' } } }, { outcome: 'no_subscription', used: 0, subscription: { plan: 'free', status: 'inactive', lapsed: 'unpaid' } }],
    ['no subscription and playground used up', { account: bare, dayUsed: 2 }, { outcome: 'playground_exhausted', used: 2 }],
    ['no subscription and no playground', { account: bare, apiPlans: noPlayground }, { outcome: 'no_subscription' }],
  ])('when %s, then the decision matches', (_case, over, expected) => {
    const decision = decideAdmission(input(over));
    expect(decision).toMatchObject(expected);
    expect(decision.charge !== undefined).toBe(decision.outcome === 'admitted' || decision.outcome === 'playground');
  });
});
