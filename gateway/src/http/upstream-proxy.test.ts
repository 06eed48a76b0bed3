import { parse } from 'node:url';
import { parseTarget } from './upstream-proxy';

// http-proxy would otherwise run url.parse on the target string for every call: the parsed form
// must carry the same fields it reads (protocol, host, hostname, port, path).
describe('parseTarget', () => {
  it.each([
    ['http://127.0.0.1:8081', { host: '127.0.0.1:8081', hostname: '127.0.0.1', port: '8081', path: '/' }],
    ['http://burger:8081/', { host: 'burger:8081', hostname: 'burger', port: '8081', path: '/' }],
    ['https://api.example.com/base?x=1', { host: 'api.example.com', hostname: 'api.example.com', port: '', path: '/base?x=1' }],
    ['http://[::1]:9000', { host: '[::1]:9000', hostname: '::1', port: '9000', path: '/' }],
  ])('%s', (target, expected) => {
    const parsed = parseTarget(target);
    expect(parsed).toMatchObject(expected);
    const legacy = parse(target);
    for (const field of ['protocol', 'host', 'hostname', 'path', 'pathname', 'href'] as const) expect(parsed[field]).toBe(legacy[field]);
    expect(parsed.port).toBe(legacy.port ?? '');
  });
});
