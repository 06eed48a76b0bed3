import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { interleavedLoad, pacedLoad } from '../../bench/paced-load';

/** How many requests carried each key. */
const countsOf = (keys: string[]): Record<string, number> => {
  const counts: Record<string, number> = {};
  for (const key of keys) counts[key] = (counts[key] ?? 0) + 1;
  return counts;
};

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
    // Keys in turn, counted rather than read in order: a tick that sends several requests (the
    // pacer woke late) sends them on several connections, which the server may read in any order.
    expect(countsOf(server.keys)).toEqual({ a: 60, b: 60 });
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
    expect(countsOf(first.keys)).toEqual({ '': 120 });
    expect(countsOf(second.keys)).toEqual({ k1: 40, k2: 40, k3: 40 });
  });
});
