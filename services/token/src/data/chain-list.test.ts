import { CHAIN_LIST_TTL_MS, createChainList } from './chain-list';

function fakeIndexer(answers: Array<string[] | Error>) {
  const calls = { count: 0 };
  return {
    calls,
    chains: async () => {
      const answer = answers[Math.min(calls.count, answers.length - 1)]!;
      calls.count += 1;
      if (answer instanceof Error) throw answer;
      return answer;
    },
  };
}

describe('createChainList', () => {
  it('when asked within a day, then the held list is used; after a day, then it is fetched again', async () => {
    let now = 0;
    const indexer = fakeIndexer([['Ethereum', 'base'], ['ethereum', 'base', 'linea']]);
    const list = createChainList({ indexer, clock: () => now });
    expect([...(await list.get())]).toEqual(['ethereum', 'base']);
    now = CHAIN_LIST_TTL_MS - 1;
    await list.get();
    expect(indexer.calls.count).toBe(1);
    now = CHAIN_LIST_TTL_MS;
    expect([...(await list.get())]).toEqual(['ethereum', 'base', 'linea']);
    expect(indexer.calls.count).toBe(2);
  });

  it('when many callers ask at once before the first fetch, then one fetch serves them all', async () => {
    const indexer = fakeIndexer([['ethereum']]);
    const list = createChainList({ indexer, clock: () => 0 });
    await Promise.all(Array.from({ length: 5 }, () => list.get()));
    expect(indexer.calls.count).toBe(1);
  });

  it('when the first fetch fails, then the error is passed on and the next call tries again', async () => {
    const indexer = fakeIndexer([new Error('down'), ['ethereum']]);
    const list = createChainList({ indexer, clock: () => 0 });
    await expect(list.get()).rejects.toThrow('down');
    expect(list.held()).toBeUndefined();
    expect([...(await list.get())]).toEqual(['ethereum']);
  });

  it('when a refresh fails, then the old list is kept and the next try waits for the retry delay', async () => {
    let now = 0;
    const failures: unknown[] = [];
    const indexer = fakeIndexer([['ethereum'], new Error('down'), ['ethereum', 'base']]);
    const list = createChainList({ indexer, clock: () => now, retryMs: 1000, onRefreshError: (e) => failures.push(e) });
    await list.get();
    now = CHAIN_LIST_TTL_MS;
    expect([...(await list.get())]).toEqual(['ethereum']);
    expect(failures).toHaveLength(1);
    now += 999;
    await list.get();
    expect(indexer.calls.count).toBe(2);
    now += 1;
    expect([...(await list.get())]).toEqual(['ethereum', 'base']);
  });
});
