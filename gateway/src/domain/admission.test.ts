import { decideAdmission } from './admission';
import type { AdmissionInput } from './admission';
import type { ApiPlans } from './plans';

const apiPlans: ApiPlans = {
  playground_per_day: 2,
  plans: { free: { monthly_quota: 5, rate_per_second: 2, price: 0, currency: 'EUR' } },
};
const noPlayground: ApiPlans = { ...apiPlans, playground_per_day: 0 };
const now = 10_000;
const active = { hash: 'h', revoked: false, subscription: { plan: 'free', status: 'active' as const } };

function input(over: Partial<AdmissionInput>): AdmissionInput {
  return { keyHash: 'h', record: active, apiPlans, nowMs: now, secondLog: [], monthUsed: 0, dayUsed: 0, ...over };
}

describe('decideAdmission', () => {
  it.each<[string, Partial<AdmissionInput>, object]>([
    ['no record', { record: undefined }, { outcome: 'unknown_key', used: 0 }],
    ['a record with another hash', { keyHash: 'other' }, { outcome: 'unknown_key' }],
    ['a revoked key', { record: { ...active, revoked: true } }, { outcome: 'revoked' }],
    ['an active plan with room', {}, { outcome: 'admitted', plan: 'free', used: 1, secondCount: 1, secondResetMs: 1000, charge: 'month' }],
    ['calls in the last second below the rate', { secondLog: [9_500] }, { outcome: 'admitted', secondCount: 2, secondResetMs: 500 }],
    ['the rate reached inside the rolling second', { secondLog: [9_001, 9_999] }, { outcome: 'rate_limited', secondCount: 2, secondResetMs: 1}],
    ['a call exactly one second old', { secondLog: [9_000, 9_999] }, { outcome: 'admitted', secondCount: 2, secondResetMs: 999 }],
    ['the monthly quota used up', { monthUsed: 5 }, { outcome: 'quota_exceeded', used: 5}],
    ['both quota and rate reached', { monthUsed: 5, secondLog: [9_999, 9_999] }, { outcome: 'quota_exceeded' }],
    ['a plan that no longer exists', { record: { ...active, subscription: { plan: 'gone', status: 'active' } } }, { outcome: 'unknown_plan' }],
    ['no subscription and playground left', { record: { hash: 'h', revoked: false }, dayUsed: 1 }, { outcome: 'playground', used: 2, charge: 'day' }],
    ['an inactive subscription and playground left', { record: { ...active, subscription: { plan: 'free', status: 'inactive' } } }, { outcome: 'playground', used: 1 }],
    ['no subscription and playground used up', { record: { hash: 'h', revoked: false }, dayUsed: 2 }, { outcome: 'playground_exhausted', used: 2 }],
    ['no subscription and no playground', { record: { hash: 'h', revoked: false }, apiPlans: noPlayground }, { outcome: 'no_subscription' }],
  ])('when %s, then the decision matches', (_case, over, expected) => {
    const decision = decideAdmission(input(over));
    expect(decision).toMatchObject(expected);
    expect(decision.charge !== undefined).toBe(decision.outcome === 'admitted' || decision.outcome === 'playground');
  });
});
