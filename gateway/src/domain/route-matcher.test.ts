import { routeMatcher } from './route-matcher';

const matches = routeMatcher({ openapi: '3.1.0', paths: { '/v1/price': {}, '/v1/chains/{chain}': {}, '/healthz': {}, '/v1/a.b': {} } });

describe('routeMatcher', () => {
  it.each<[string, boolean]>([
    ['/v1/price', true],
    ['/v1/price/', true],
    ['/v1/prices', false],
    ['/v1/Price', false],
    ['/v1/chains/base', true],
    ['/v1/chains/base/more', false],
    ['/v1/chains/', false],
    ['/healthz', false],
    ['/v1/a.b', true],
    ['/v1/aXb', false],
    ['/v1/constructor', false],
    ['/v1/__proto__', false],
  ])('%p → %p', (path, expected) => {
    expect(matches(path)).toBe(expected);
  });

  it('matches nothing for a document without paths', () => {
    expect(routeMatcher({ openapi: '3.1.0' } as never)('/v1/price')).toBe(false);
  });
});
