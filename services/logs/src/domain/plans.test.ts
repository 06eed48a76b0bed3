import { CHAINS, findChain } from './chains.js';
import { includes, includesChain, planForChain, planFromHeader, type Plan } from './plans.js';

describe('planFromHeader', () => {
  it.each<[string | undefined, Plan]>([
    [undefined, 'business'],
    ['', 'business'],
    ['free', 'free'],
    ['Starter', 'starter'],
    ['pro', 'pro'],
    ['business', 'business'],
    ['platinum', 'free'],
  ])('when the header is %j, then the plan is %s', (header, plan) => {
    expect(planFromHeader(header)).toBe(plan);
  });
});

describe('plan features', () => {
  it.each<[Plan, boolean, number]>([
    ['free', false, 6],
    ['starter', true, 6],
    ['pro', true, 14],
    ['business', true, 14],
  ])('when the plan is %s, then topic filtering is %s and %i chains are included', (plan, topics, chains) => {
    expect(includes(plan, 'topic_filtering')).toBe(topics);
    expect(CHAINS.filter((c) => includesChain(plan, c))).toHaveLength(chains);
  });

  it.each([
    ['ethereum', 'free'],
    ['bnb', 'free'],
    ['avalanche', 'pro'],
    ['celo', 'pro'],
  ])('when the chain is %s, then it is included from %s', (slug, plan) => {
    expect(planForChain(findChain(slug) as never)).toBe(plan);
  });
});

describe('chains', () => {
  it.each([
    ['ethereum', 1],
    ['1', 1],
    ['BASE', 8453],
    ['42161', 42161],
    ['zksync', 324],
  ])('when chain=%s, then id %i', (value, id) => {
    expect(findChain(value)?.id).toBe(id);
  });

  it('when the table is read, then 14 distinct chains with 6 core ones are there', () => {
    expect(new Set(CHAINS.map((c) => c.id)).size).toBe(14);
    expect(CHAINS.filter((c) => c.core).map((c) => c.slug)).toEqual(['ethereum', 'base', 'arbitrum', 'optimism', 'bnb', 'polygon']);
  });
});
