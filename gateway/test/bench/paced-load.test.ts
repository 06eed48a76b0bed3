import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { interleavedLoad, pacedLoad } from '../../bench/paced-load';

/** A server that answers 200 and records the key each request carried. */
async function recordingServer(): Promise<{ url: string; keys: string[]; close: () => Promise<void> }> {
  const keys: string[] = [];
  const server = http.createServer((req, res) => {
    keys.push(String(req.headers['x-tollgate-key'] ?? ''));
    res.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/x`,
    keys,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('the paced load', () => {
  const servers: { close: () => Promise<void> }[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });

  it('sends one target its rate for the measured seconds after the warm-up, rotating the keys', async () => {
    const server = await recordingServer();
    servers.push(server);
    const result = await pacedLoad({ url: server.url, keys: ['a', 'b'], ratePerSecond: 200, seconds: 0.5, warmupSeconds: 0.1 });
    expect(result).toMatchObject({ sent: 100, ok: 100 });
    expect(result.p99).toBeGreaterThanOrEqual(result.p50);
    expect(server.keys).toHaveLength(120);
    expect(server.keys.slice(0, 4)).toEqual(['a', 'b', 'a', 'b']);
  });

  it('gives each of several targets the same rate for the same seconds, in turns, each with its own keys', async () => {
    const [first, second] = [await recordingServer(), await recordingServer()];
    servers.push(first, second);
    const results = await interleavedLoad({
      targets: [{ url: first.url }, { url: second.url, keys: ['k1', 'k2', 'k3'] }],
      ratePerSecond: 200,
      seconds: 0.5,
      warmupSeconds: 0.1,
      sliceMs: 50,
    });
    expect(results.map((r) => [r.sent, r.ok])).toEqual([
      [100, 100],
      [100, 100],
    ]);
    expect(first.keys).toEqual(Array(120).fill(''));
    expect(second.keys.slice(0, 6)).toEqual(['k1', 'k2', 'k3', 'k1', 'k2', 'k3']);
    expect(second.keys).toHaveLength(120);
  });
});
