import fc from 'fast-check';
import { EVERY_PROTOTYPE_NAME } from '@tollgate/envelope/test/hostile-requests';
import { builtInPlanTable } from '../config';
import { apiPlansNamed, planNamed, planProblem } from './plans';

const BUILT_IN_PLANS = builtInPlanTable();

// Issue 35, item 10: `plans[api]?.plans[plan]` matched `constructor` and `__proto__`, so billing
// made a Stripe customer in currency `undefined`. Lookups by a caller's name match own entries only.

describe('plan lookups by name', () => {
  it('when the name is a plan or an API of the table, then it is found', () => {
    expect(apiPlansNamed(BUILT_IN_PLANS, 'token')).toBe(BUILT_IN_PLANS.token);
    expect(planNamed(BUILT_IN_PLANS, 'token', 'pro')).toEqual({ monthly_quota: 650_000, rate_per_second: 15, price: 2_500, currency: 'EUR' });
    expect(planProblem(BUILT_IN_PLANS, 'token', 'pro')).toBeUndefined();
  });

  it('when any name a built-in prototype holds is given as an API or a plan, then nothing is found and the problem names what there is', () => {
    fc.assert(
      fc.property(fc.constantFrom(...EVERY_PROTOTYPE_NAME), (name) => {
        expect(apiPlansNamed(BUILT_IN_PLANS, name)).toBeUndefined();
        expect(planNamed(BUILT_IN_PLANS, name, 'free')).toBeUndefined();
        expect(planNamed(BUILT_IN_PLANS, 'token', name)).toBeUndefined();
        expect(planProblem(BUILT_IN_PLANS, name, 'free')).toEqual({ unknown: 'api', message: `unknown API '${name}'; APIs: burger, token, logs` });
        expect(planProblem(BUILT_IN_PLANS, 'token', name)).toEqual({ unknown: 'plan', message: 'plan must be one of free, starter, pro, scale for token' });
      }),
      // Every name at least once, then random ones.
      { examples: EVERY_PROTOTYPE_NAME.map((name) => [name]), numRuns: EVERY_PROTOTYPE_NAME.length + 50 },
    );
  });
});
