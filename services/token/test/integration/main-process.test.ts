import { join } from 'node:path';
import { startLocalIndexer } from '../support/local-indexer';
import type { LocalIndexer } from '../support/local-indexer';
import { freePort, startMain as startProcess, waitForOk } from '@tollgate/envelope/test/processes';
import type { MainProcess } from '@tollgate/envelope/test/processes';

const root = join(__dirname, '..', '..');

// Every process a test starts is stopped after it, pass or fail: one a failed test left running
// (a bad variable it did not exit on) would keep jest from exiting.
const started: MainProcess[] = [];
const startMain = (env: Record<string, string>): MainProcess => {
  const main = startProcess(root, { LOG_LEVEL: 'warn', ...env });
  started.push(main);
  return main;
};
afterEach(async () => {
  await Promise.all(started.splice(0).map((main) => main.stop()));
});

describe('the token service as a process', () => {
  let indexer: LocalIndexer;
  beforeAll(async () => {
    indexer = await startLocalIndexer();
  });
  afterAll(() => indexer.close());

  it('when started against the local indexer, then it serves prices and stops cleanly on SIGTERM', async () => {
    const port = await freePort();
    const main = startMain({ PORT: String(port), TOKEN_UPSTREAM_URL: indexer.url, PROXY_SECRET: 'proxy-secret-0123456789abcdef' });
    try {
      await waitForOk(`http://127.0.0.1:${port}/readyz`);
      const res = await fetch(`http://127.0.0.1:${port}/v1/price?tokens=coingecko:bitcoin`, { headers: { 'x-tollgate-proxy-secret': 'proxy-secret-0123456789abcdef' } });
      const body = (await res.json()) as { data: { prices: Array<{ symbol: string }> } };
      expect(res.status).toBe(200);
      expect(body.data.prices[0]!.symbol).toBe('BTC');
    } finally {
      main.child.kill('SIGTERM');
    }
    expect(await main.exited).toBe(0);
  });

  it('when the price indexer is unreachable, then a failed call logs one line with its cause beside its access line, no stack', async () => {
    const port = await freePort();
    const main = startMain({ PORT: String(port), TOKEN_UPSTREAM_URL: 'http://127.0.0.1:9' });
    try {
      await waitForOk(`http://127.0.0.1:${port}/healthz`);
      const res = await fetch(`http://127.0.0.1:${port}/v1/price?tokens=coingecko:bitcoin`, { headers: { 'x-request-id': 'down-1' } });
      expect(res.status).toBe(502);
    } finally {
      main.child.kill('SIGTERM');
    }
    expect(await main.exited).toBe(0);
    const lines = main.output().trim().split('\n');
    const entries = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    // At warn level: the start-up chain-list warning, then the call's cause line and its access line.
    expect(entries.map((e) => e.msg).sort()).toEqual(['chain list not loaded yet; /readyz will retry', 'request errored', 'the price indexer could not be reached (ECONNREFUSED)']);
    const forCall = entries.filter((e) => e.request_id === 'down-1');
    expect(forCall).toHaveLength(1);
    expect(forCall[0]).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', cause: { code: 'ECONNREFUSED', host: '127.0.0.1:9' } });
    for (const line of lines) {
      expect(line).not.toMatch(/"stack"|"config"|\\n\s+at /);
      expect(line.length).toBeLessThan(800);
    }
  });

  it('when a variable is bad, then it exits 1 with one line naming it', async () => {
    const main = startMain({ PORT: 'x' });
    expect(await main.exited).toBe(1);
    expect(main.output().trim()).toBe('token: PORT must be an integer from 0 to 65535');
  });
});
