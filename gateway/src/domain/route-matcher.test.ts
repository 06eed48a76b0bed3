import { routeMatcher } from './route-matcher';

const matches = routeMatcher({ openapi: '3.1.0', paths: { '/v1/price': {}, '/v1/chains/{chain}': {}, '/healthz': {}, '/v1/a.b': {} } });

describe('routeMatcher', () => {
  it.each<[string, string | null]>([
    ['/v1/price', '/v1/price'],
    ['/v1/price/', '/v1/price'],
    ['/v1/prices', null],
    ['/v1/Price', null],
    ['/v1/chains/base', '/v1/chains/{chain}'],
    ['/v1/chains/base/more', null],
    ['/v1/chains/', null],
    ['/healthz', null],
    ['/v1/a.b', '/v1/a.b'],
    ['/v1/aXb', null],
    ['/v1/constructor', null],
    ['/v1/__proto__', null],
  ])('%p → %p (the template it matches, never the path with its values)', (path, expected) => {
    expect(matches(path)).toBe(expected);
  });

  it('matches nothing for a document without paths', () => {
    expect(routeMatcher({ openapi: '3.1.0' } as never)('/v1/price')).toBeNull();
  });
});
