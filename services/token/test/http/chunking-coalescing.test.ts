import request from 'supertest';
import type { PriceIndexer } from '../../src/data/price-indexer';
import { IDS, manyIds, startHarness } from './harness';
import type { Harness } from './harness';

describe('chunking', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it('when 250 tokens are asked, then the indexer gets 3 calls of at most 100 and every token is answered', async () => {
    const ids = [...manyIds(248), IDS.usdc, IDS.sol];
    h.local.calls.length = 0;
    const res = await request(h.app).get('/v1/price').query({ tokens: ids.join(',') });
    expect(res.status).toBe(200);
    const calls = h.local.calls.filter((c) => c.path.startsWith('/prices/current'));
    expect(calls.map((c) => c.coins.length)).toEqual([100, 100, 50]);
    expect(calls.flatMap((c) => c.coins).sort()).toEqual([...ids].sort());
    expect(res.body.data.count).toBe(2);
    expect(res.body.data.not_found).toHaveLength(248);
  });

  it('when 250 tokens are asked for a change, then batchHistorical is called 3 times', async () => {
    h.local.calls.length = 0;
    const res = await request(h.app).get('/v1/change').query({ tokens: manyIds(250).join(','), period: '1d' });
    expect(res.status).toBe(200);
    expect(h.local.calls.filter((c) => c.path === '/batchHistorical').map((c) => c.coins.length)).toEqual([100, 100, 50]);
  });
});

describe('coalescing', () => {
  let h: Harness;
  let currentCalls = 0;
  let tenArrived: () => void;
  const arrived = new Promise<void>((resolve) => {
    tenArrived = resolve;
  });
  // Counts calls reaching the client, so the upstream answer is released only once all ten are in.
  const counting = (inner: PriceIndexer): PriceIndexer => ({
    ...inner,
    current: (keys) => {
      currentCalls += 1;
      if (currentCalls === 10) tenArrived();
      return inner.current(keys);
    },
  });

  beforeAll(async () => {
    h = await startHarness({ wrap: counting });
    await request(h.app).get('/readyz');
  });
  afterAll(() => h.close());

  it('when 10 identical calls are in flight, then the indexer gets one call and all 10 get the answer', async () => {
    h.local.calls.length = 0;
    const release = h.local.hold();
    const responses = Array.from({ length: 10 }, () => request(h.app).get('/v1/price').query({ tokens: `${IDS.weth},${IDS.eth}` }).then((r) => r));
    await arrived;
    release();
    const answers = await Promise.all(responses);
    expect(answers.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(new Set(answers.map((r) => JSON.stringify(r.body.data)))).toEqual(new Set([JSON.stringify(answers[0]!.body.data)]));
    expect(h.local.calls.filter((c) => c.path.startsWith('/prices/current'))).toHaveLength(1);
  });

  it('when the same call comes after the first has finished, then it goes upstream again (nothing is cached)', async () => {
    h.local.calls.length = 0;
    await request(h.app).get('/v1/price').query({ tokens: IDS.weth });
    await request(h.app).get('/v1/price').query({ tokens: IDS.weth });
    expect(h.local.calls.filter((c) => c.path.startsWith('/prices/current'))).toHaveLength(2);
  });
});
