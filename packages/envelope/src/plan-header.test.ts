import { planFromHeader } from './plan-header';

const PLANS = ['free', 'starter', 'pro', 'scale'] as const;

describe('planFromHeader', () => {
  it.each([
    ['no header', undefined, 'scale'],
    ['an empty header', '  ', 'scale'],
    ['a known plan', 'starter', 'starter'],
    ['a known plan in another case, padded', ' PRO ', 'pro'],
    ['an unknown plan', 'enterprise', 'free'],
  ])('when given %s, then the plan is as expected', (_case, header, plan) => {
    expect(planFromHeader(header, PLANS)).toBe(plan);
  });
});
