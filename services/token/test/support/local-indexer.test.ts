import { startLocalIndexer } from './local-indexer';

// A slow answer's timer once outlived the file that asked for it (upstream-failures.test.ts: 1.5 s,
// to a client that waited 300 ms), and Jest force-exited the worker that had run that file last.
// The timers are watched, not replaced: the spies call through to the real ones.

const SLOW_MS = 5_000;

describe('the local indexer, asked for a slow answer', () => {
  let set: jest.SpyInstance;
  let clear: jest.SpyInstance;
  beforeEach(() => {
    set = jest.spyOn(global, 'setTimeout');
    clear = jest.spyOn(global, 'clearTimeout');
  });
  afterEach(() => jest.restoreAllMocks());

  /** The timer the indexer armed for the slow answer, once it has the call. */
  async function slowTimer(calls: () => number): Promise<unknown> {
    while (calls() === 0) await new Promise((resolve) => setImmediate(resolve));
    const at = set.mock.calls.findIndex((args) => args[1] === SLOW_MS);
    expect(at).toBeGreaterThanOrEqual(0);
    return set.mock.results[at]!.value;
  }

  it('when the client gives up, then the answer’s timer is cleared', async () => {
    const indexer = await startLocalIndexer();
    try {
      indexer.setFault({ delayMs: SLOW_MS });
      const aborted = new AbortController();
      const call = fetch(`${indexer.url}/prices/current/coingecko:bitcoin`, { signal: aborted.signal });
      const timer = await slowTimer(() => indexer.calls.length);
      aborted.abort();
      await expect(call).rejects.toThrow('aborted');
      // The indexer hears the connection close a moment later.
      for (let i = 0; i < 200 && !clear.mock.calls.some(([t]) => t === timer); i++) await new Promise((resolve) => setImmediate(resolve));
      expect(clear).toHaveBeenCalledWith(timer);
    } finally {
      await indexer.close();
    }
  });

  it('when the indexer is closed with the answer pending, then its timer is cleared', async () => {
    const indexer = await startLocalIndexer();
    indexer.setFault({ delayMs: SLOW_MS });
    const call = fetch(`${indexer.url}/prices/current/coingecko:bitcoin`);
    const timer = await slowTimer(() => indexer.calls.length);
    await indexer.close();
    await expect(call).rejects.toThrow('fetch failed');
    expect(clear).toHaveBeenCalledWith(timer);
  });
});
