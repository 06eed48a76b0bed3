import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse } from 'node:url';
import { createUpstreamAgent, parseTarget, sweepQueue } from './upstream-proxy';

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

describe('sweepQueue', () => {
  it('ends a request queued too long with its error at once, and the agent keeps working when the socket frees', async () => {
    const server = http.createServer((_req, res) => void setTimeout(() => res.end('x'), 300));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const agent = createUpstreamAgent(url, 1);
    try {
      const first = new Promise<number>((resolve) => http.get(url, { agent }, (r) => (r.resume(), r.on('end', () => resolve(r.statusCode ?? 0)))));
      const queued = new Promise<string>((resolve) => http.get(url, { agent }).on('error', (e) => resolve(e.message)));
      await new Promise((resolve) => setTimeout(resolve, 50));
      sweepQueue(agent, 10, (waited) => new Error(`waited ${waited > 10 ? 'too long' : 'not long'}`));
      expect(await queued).toBe('waited too long');
      expect(Object.keys(agent.requests)).toEqual([]);
      expect(await first).toBe(200);
      const again = await new Promise<number>((resolve) => http.get(url, { agent }, (r) => (r.resume(), r.on('end', () => resolve(r.statusCode ?? 0)))));
      expect(again).toBe(200);
    } finally {
      agent.destroy();
      server.close();
    }
  });
});
