import { INDEX_ROUTE } from '../../src/routes/index-route';
import { getChecked, useFixtureApp } from '../support/burger-app';

const app = useFixtureApp('small-index.csv');
const getIndex = (query: string) => getChecked(app().app, INDEX_ROUTE, query);

describe('GET /v1/index', () => {
  it('when called without parameters, then the latest release against USD comes, highest raw valuation first', async () => {
    const res = await getIndex('');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok', success: true, message: 'Index retrieved successfully' });
    expect(res.body.data).toMatchObject({ count: 11, release_date: '2026-01-01', base_currency: 'USD' });
    expect(res.body.data.source).toMatch(/Economist/);
    expect(res.body.data.countries[0]).toEqual({
      iso3: 'CHE',
      country: 'Switzerland',
      currency: 'CHF',
      local_price: 7.3,
      dollar_price: 9.08412145345943,
      raw_valuation_pct: 48.433,
      dollar_exchange_rate: 0.8036,
      adjusted_valuation_pct: 52.769,
    });
    expect(res.body.meta.request_id).toBe(res.headers['x-request-id']);
  });

  it.each(['eur', 'EUR', 'Eur'])('when base=%s, then values are the EUR columns × 100 and base_currency is EUR', async (base) => {
    const res = await getIndex(`?base=${base}&sort=name`);
    expect(res.body.data.base_currency).toBe('EUR');
    const euro = res.body.data.countries.find((c: { iso3: string }) => c.iso3 === 'EUZ');
    expect(euro).toMatchObject({ raw_valuation_pct: 0, adjusted_valuation_pct: 0 });
    const swiss = res.body.data.countries.find((c: { iso3: string }) => c.iso3 === 'CHE');
    expect(swiss).toMatchObject({ raw_valuation_pct: 28.779, adjusted_valuation_pct: 14.528 });
  });

  it('when base is another currency of the latest release, then it is computed against that country', async () => {
    const res = await getIndex('?base=chf');
    expect(res.body.data.base_currency).toBe('CHF');
    expect(res.body.data.countries[0]).toMatchObject({ iso3: 'CHE', raw_valuation_pct: 0, adjusted_valuation_pct: 0 });
  });

  it.each([
    ['?sort=valuation', ['CHE', 'GBR', 'EUZ']],
    ['?sort=valuation&order=asc', ['JPN', 'CHN', 'VEN']],
    ['?sort=name', ['GBR', 'CHN', 'CZE']],
    ['?sort=name&order=desc', ['VEN', 'USA', 'ARE']],
    ['?sort=price', ['CHE', 'GBR', 'EUZ']],
    ['?sort=price&order=asc', ['JPN', 'CHN', 'VEN']],
    ['?order=asc', ['JPN', 'CHN', 'VEN']],
  ])('when %s, then the list starts %j', async (query, first) => {
    const res = await getIndex(query);
    expect(res.body.data.countries.slice(0, 3).map((c: { iso3: string }) => c.iso3)).toEqual(first);
  });

  it('when a country has no GDP-adjusted figure, then adjusted_valuation_pct is omitted for it', async () => {
    const res = await getIndex('');
    const omitted = res.body.data.countries.filter((c: object) => !('adjusted_valuation_pct' in c)).map((c: { iso3: string }) => c.iso3);
    expect(omitted.sort()).toEqual(['LBN', 'VEN']);
  });

  it.each([
    ['?base=xyz', 'base', /^base must be one of usd, eur, gbp, jpy, cny, or another currency code of the 2026-01-01 release/],
    ['?base=dollars', 'base', /^base must be one of usd, eur, gbp, jpy, cny \(any case\)/],
    ['?sort=cheapest', 'sort', /^sort must be one of valuation, name, price$/],
    ['?order=up', 'order', /^order must be one of asc, desc$/],
    ['?limit=5', 'limit', /^unknown parameter 'limit'; allowed parameters: base, sort, order$/],
    ['?base=usd&base=eur', 'base', /^base must be given only once$/],
  ])('when %s, then 400 BAD_REQUEST names %s', async (query, parameter, message) => {
    const res = await getIndex(query);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('BAD_REQUEST');
    expect(res.body.error.details.parameter).toBe(parameter);
    expect(res.body.message).toMatch(message);
  });

  it('when the base is unknown, then the allowed bases are listed in error.details', async () => {
    const res = await getIndex('?base=xyz');
    expect(res.body.error.details.allowed).toEqual(['usd', 'eur', 'gbp', 'jpy', 'cny', 'aed', 'chf', 'czk', 'lbp', 'pen', 'ves']);
  });

  it('when the same answer is asked twice, then the body is identical but for meta', async () => {
    const first = await getIndex('?base=gbp&sort=price');
    const second = await getIndex('?base=GBP&sort=price&order=desc');
    expect(second.body.data).toEqual(first.body.data);
    expect(second.body.meta.request_id).not.toBe(first.body.meta.request_id);
  });
});
