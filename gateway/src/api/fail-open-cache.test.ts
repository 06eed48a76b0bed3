import { FailOpenCache } from './fail-open-cache';

describe('FailOpenCache', () => {
  it.each<[string, (c: FailOpenCache) => void, string, number, object | undefined]>([
    ['a remembered key and API', (c) => c.remember('h', 'key_1', 'acc_1', 'token', 'pro', 0), 'token', 1_000, { keyId: 'key_1', plan: 'pro' }],
    ['another API of a remembered key', (c) => c.remember('h', 'key_1', 'acc_1', 'token', 'pro', 0), 'logs', 1_000, undefined],
    ['an entry older than the maximum age', (c) => c.remember('h', 'key_1', 'acc_1', 'token', 'pro', 0), 'token', 60_001, undefined],
    ['a forgotten key', (c) => (c.remember('h', 'key_1', 'acc_1', 'token', 'pro', 0), c.forget('h')), 'token', 1, undefined],
    ['a key revoked by id', (c) => (c.remember('h', 'key_1', 'acc_1', 'token', 'pro', 0), c.forgetId('key_1')), 'token', 1, undefined],
    ['a key after the cache was cleared', (c) => (c.remember('h', 'key_1', 'acc_1', 'token', 'pro', 0), c.restart(true)), 'token', 1, undefined],
    ['a key whose account was suspended', (c) => (c.remember('h', 'key_1', 'acc_1', 'token', 'pro', 0), c.forgetId('acc_1')), 'token', 1, undefined],
    ['a key when another id was revoked', (c) => (c.remember('h', 'key_1', 'acc_1', 'token', 'pro', 0), c.forgetId('key_2')), 'token', 1, { keyId: 'key_1', plan: 'pro' }],
    ['a key remembered before revocations were heard', (c) => (c.restart(false), c.remember('h', 'key_1', 'acc_1', 'token', 'pro', 0), c.restart(true)), 'token', 1, undefined],
    ['a key remembered while revocations cannot be heard', (c) => (c.restart(false), c.remember('h', 'key_1', 'acc_1', 'token', 'pro', 0)), 'token', 1, undefined],
    ['a key pushed out by newer ones', (c) => (c.remember('h', 'key_1', 'acc_1', 'token', 'pro', 0), c.remember('h2', 'key_2', 'acc_2', 'token', 'free', 0), c.remember('h3', 'key_3', 'acc_3', 'token', 'free', 0)), 'token', 1, undefined],
  ])('when looking up %s, then the answer is as expected', (_case, setup, api, now, expected) => {
    const cache = new FailOpenCache(2, 60_000);
    cache.restart(true);
    setup(cache);
    expect(cache.lookup('h', api, now)).toEqual(expected);
  });

  it('when revocations have never been heard, then it remembers nothing and says it is not listening', () => {
    const cache = new FailOpenCache();
    cache.remember('h', 'key_1', 'acc_1', 'token', 'pro', 0);
    expect(cache.listening).toBe(false);
    expect(cache.lookup('h', 'token', 1)).toBeUndefined();
  });
});
