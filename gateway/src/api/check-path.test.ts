import { checkPath } from './check-path';

describe('checkPath', () => {
  it.each([
    '/token/v1/price',
    '/token/v1/price/',
    '/burger/v1/country',
    '/logs/v1/logs',
    '/token/v1/a.b',
    '/token/v1/..a',
    '/token/v1/%41%42',
    '/token/v1/%E2%82%AC',
  ])('%p can be routed', (path) => {
    expect(checkPath(path)).toBeUndefined();
  });

  it.each([
    ['/token/v1/\u0000price', 'the path contains control characters'],
    ['/token/v1/price\u007f', 'the path contains control characters'],
    ['/token/v1/%00', 'the path contains encoded control characters'],
    ['/token/v1/%0a', 'the path contains encoded control characters'],
    ['/token/v1/%7F', 'the path contains encoded control characters'],
    ['/token/v1/%zz', 'the path has a malformed percent-encoding'],
    ['/token/v1/price%', 'the path has a malformed percent-encoding'],
    ['/token/v1/%2Fprice', 'the path contains an encoded slash or a backslash'],
    ['/token/v1/%5cprice', 'the path contains an encoded slash or a backslash'],
    ['/token/v1\\price', 'the path contains an encoded slash or a backslash'],
    ['/token//v1/price', 'the path contains an empty segment (//)'],
    ['/token/v1//price', 'the path contains an empty segment (//)'],
    ['/token/./v1/price', 'the path contains a dot segment (. or ..)'],
    ['/token/v1/../v1/price', 'the path contains a dot segment (. or ..)'],
    ['/token/v1/%2e%2e/admin', 'the path contains a dot segment (. or ..)'],
    ['/token/v1/.%2E/price', 'the path contains a dot segment (. or ..)'],
    ['/token/v1/%2E', 'the path contains a dot segment (. or ..)'],
    ['/token/v1/..', 'the path contains a dot segment (. or ..)'],
    ['/token/v1/prices#/chart', 'the path contains a fragment (#)'],
  ])('%p is refused: %s', (path, reason) => {
    expect(checkPath(path)).toBe(reason);
  });
});
