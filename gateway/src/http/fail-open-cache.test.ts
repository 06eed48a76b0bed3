import { FailOpenCache } from './fail-open-cache';

describe('FailOpenCache', () => {
  it.each<[string, (c: FailOpenCache) => void, string, number, object | undefined]>([
    ['a remembered key and API', (c) => c.remember('h', 'key_1', 'token', 'pro', 0), 'token', 1_000, { keyId: 'key_1', plan: 'pro' }],
    ['another API of a remembered key', (c) => c.remember('h', 'key_1', 'token', 'pro', 0), 'logs', 1_000, undefined],
    ['an entry older than the maximum age', (c) => c.remember('h', 'key_1', 'token', 'pro', 0), 'token', 60_001, undefined],
    ['a forgotten key', (c) => (c.remember('h', 'key_1', 'token', 'pro', 0), c.forget('h')), 'token', 1, undefined],
    ['a key pushed out by newer ones', (c) => (c.remember('h', 'key_1', 'token', 'pro', 0), c.remember('h2', 'key_2', 'token', 'free', 0), c.remember('h3', 'key_3', 'token', 'free', 0)), 'token', 1, undefined],
  ])('when looking up %s, then the answer is as expected', (_case, setup, api, now, expected) => {
    const cache = new FailOpenCache(2, 60_000);
    setup(cache);
    expect(cache.lookup('h', api, now)).toEqual(expected);
  });
});
