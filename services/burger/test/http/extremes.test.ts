import request from 'supertest';
import { EXTREMES_ROUTE } from '../../src/routes/extremes-route';
import { getChecked, useFixtureApp } from '../support/burger-app';

const app = useFixtureApp('small-index.csv');
const getExtremes = (query: string) => getChecked(app().app, EXTREMES_ROUTE, query);
const codes = (list: { iso3: string }[]) => list.map((c) => c.iso3);

describe('GET /v1/extremes', () => {
  it('when called without parameters, then five per side against USD come, highest and lowest first', async () => {
    const res = await getExtremes('');
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Extremes retrieved successfully');
    expect(res.body.data).toMatchObject({ release_date: '2026-01-01', base_currency: 'USD' });
    expect(codes(res.body.data.most_overvalued)).toEqual(['CHE', 'GBR', 'EUZ', 'USA', 'CZE']);
    expect(codes(res.body.data.most_undervalued)).toEqual(['JPN', 'CHN', 'VEN', 'PER', 'ARE']);
  });

  it.each([
    ['?limit=1', 1],
    ['?limit=3&base=JPY', 3],
    ['?limit=25', 11],
  ])('when %s, then each side has at most the limit', async (query, length) => {
    const res = await getExtremes(query);
    expect(res.body.data.most_overvalued).toHaveLength(length);
    expect(res.body.data.most_undervalued).toHaveLength(length);
  });

  it('when base=jpy, then Japan sits at 0 and the lists are against the yen', async () => {
    const res = await getExtremes('?base=jpy&limit=25');
    expect(res.body.data.base_currency).toBe('JPY');
    const japan = res.body.data.most_overvalued.find((c: { iso3: string }) => c.iso3 === 'JPN');
    expect(japan).toMatchObject({ raw_valuation_pct: 0, adjusted_valuation_pct: 0 });
  });

  it.each(['Infinity', '-Infinity', '1e309', '+Infinity'])('when limit=%p, then 400 says it must be a finite number', async (limit) => {
    const res = await getExtremes(`?limit=${encodeURIComponent(limit)}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({ code: 'BAD_REQUEST', details: { parameter: 'limit' } });
    expect(res.body.message).toBe('limit must be a finite number');
  });

  it.each(['post', 'put', 'patch', 'delete', 'options'] as const)('when %s reaches /v1/extremes, then 405 with Allow: GET, HEAD', async (method) => {
    const res = await request(app().app)[method]('/v1/extremes');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
    expect(res.body.error.code).toBe('METHOD_NOT_ALLOWED');
  });

  it.each(['0', '26', '-1', 'abc', '2.5', ''])('when limit=%p, then 400 says it must be an integer from 1 to 25', async (limit) => {
    const res = await getExtremes(`?limit=${limit}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({ code: 'BAD_REQUEST', details: { parameter: 'limit' } });
    expect(res.body.message).toBe('limit must be an integer from 1 to 25');
  });

  it('when an unknown parameter is given, then 400 names it', async () => {
    const res = await getExtremes('?top=3');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("unknown parameter 'top'; allowed parameters: base, limit");
  });
});
