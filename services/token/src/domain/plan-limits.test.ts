import { BATCH_LIMITS, batchLimitProblem, planOf } from './plan-limits';

describe('planOf', () => {
  it.each([
    [undefined, 'scale'],
    ['', 'scale'],
    ['starter', 'starter'],
    [' Pro ', 'pro'],
    ['enterprise', 'free'],
  ])('when the header is %p, then the plan is %s', (header, plan) => {
    expect(planOf(header)).toBe(plan);
  });
});

describe('batchLimitProblem', () => {
  it('when the starter plan is used, then the spec limit of 12 applies', () => {
    expect(BATCH_LIMITS.starter).toBe(12);
  });

  it.each([
    ['free', 3, undefined],
    ['free', 4, 'tokens lists 4 tokens but the free plan allows at most 3 per call; the starter plan allows up to 12'],
    ['starter', 12, undefined],
    ['starter', 13, 'tokens lists 13 tokens but the starter plan allows at most 12 per call; the pro plan allows up to 60'],
    ['starter', 61, 'tokens lists 61 tokens but the starter plan allows at most 12 per call; the scale plan allows up to 250'],
    ['scale', 250, undefined],
    ['scale', 251, 'tokens lists 251 tokens but the scale plan allows at most 250 per call; no plan allows more than 250 (scale); split the list'],
  ] as const)('when the %s plan asks for %i tokens, then the answer is %p', (plan, count, problem) => {
    expect(batchLimitProblem(plan, count)).toBe(problem);
  });
});
