import request from 'supertest';
import { IDS, manyIds, startHarness } from './harness';
import type { Harness } from './harness';

describe('token: non-finite numbers, zero durations and inherited names', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it.each([
    ['/v1/chart', { period: '0d' }, 'period'],
    ['/v1/chart', { period: '00h' }, 'period'],
    ['/v1/chart', { period: '0000w' }, 'period'],
    ['/v1/change', { period: '0d' }, 'period'],
    ['/v1/change', { period: '0m' }, 'period'],
    ['/v1/historical', { timestamp: '-Infinity' }, 'timestamp'],
    ['/v1/historical', { timestamp: 'Infinity' }, 'timestamp'],
    ['/v1/historical', { timestamp: '1e309' }, 'timestamp'],
    ['/v1/change', { timestamp: '-Infinity' }, 'timestamp'],
    ['/v1/chart', { start: '-Infinity' }, 'start'],
    ['/v1/chart', { end: 'Infinity' }, 'end'],
    ['/v1/chart', { span: '1e309' }, 'span'],
    ['/v1/price', { min_confidence: 'Infinity' }, 'min_confidence'],
    ['/v1/price', { min_confidence: '-1e309' }, 'min_confidence'],
  ])('when %s gets %j, then 400 names %s', async (path, query, parameter) => {
    const res = await request(h.app).get(path).query({ tokens: IDS.usdc, ...query });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'BAD_REQUEST', details: { parameter } });
  });

  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])('when a token names the chain %s, then 400 says the chain is unknown', async (chain) => {
    const res = await request(h.app).get('/v1/price').query({ tokens: `${chain}:0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48` });
    expect(res.status).toBe(400);
    expect(res.body.error.details.invalid).toEqual([expect.objectContaining({ kind: 'unknown_chain' })]);
  });

  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])('when the plan header is %s, then the free plan\'s batch limit applies', async (plan) => {
    const res = await request(h.app).get('/v1/price').query({ tokens: manyIds(4).join(',') }).set('x-tollgate-subscription', plan);
    expect(res.status).toBe(400);
    expect(res.body.error.details).toMatchObject({ parameter: 'tokens', plan: 'free' });
  });

  it.each(['post', 'put', 'patch', 'delete', 'options'] as const)('when %s reaches /v1/price, then 405 with Allow: GET, HEAD', async (method) => {
    const res = await request(h.app)[method]('/v1/price');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
    expect(res.body.error.code).toBe('METHOD_NOT_ALLOWED');
  });
});
