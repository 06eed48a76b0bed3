import { createResponseCache } from './response-cache.js';

describe('createResponseCache', () => {
  it.each([
    ['within the TTL', 29_999, 'v'],
    ['at the TTL', 30_000, undefined],
    ['after the TTL', 60_000, undefined],
  ])('when read %s, then %j', (_name, elapsed, expected) => {
    let now = 0;
    const cache = createResponseCache({ ttlMs: 30_000, maxEntries: 10, clock: () => now });
    cache.set('k', 'v');
    now += elapsed;
    expect(cache.get('k')).toBe(expected);
  });

  it('when full, then the oldest entry goes first', () => {
    const cache = createResponseCache({ ttlMs: 1000, maxEntries: 2, clock: () => 0 });
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([undefined, 2, 3]);
  });

  it('when the TTL is 0, then nothing is kept', () => {
    const cache = createResponseCache({ ttlMs: 0, maxEntries: 2, clock: () => 0 });
    cache.set('a', 1);
    expect(cache.get('a')).toBeUndefined();
  });
});
