import { COUNTRY_ROUTE } from '../../src/routes/country-route';
import { getChecked, useFixtureApp } from '../support/burger-app';

const app = useFixtureApp('small-index.csv');
const getCountry = (query: Record<string, string>) => getChecked(app().app, COUNTRY_ROUTE, query);

describe('GET /v1/country', () => {
  it('when asked for Switzerland, then its history ascends from 2000 and latest is its 2026 record', async () => {
    const res = await getCountry({ country: 'Switzerland' });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Country retrieved successfully');
    const data = res.body.data;
    expect(data).toMatchObject({ iso3: 'CHE', country: 'Switzerland', currency: 'CHF', base_currency: 'USD', history_count: 3 });
    expect(data.history.map((h: { date: string }) => h.date)).toEqual(['2000-04-01', '2025-01-01', '2026-01-01']);
    expect(data.history[0]).toEqual({ date: '2000-04-01', local_price: 5.9, dollar_price: 3.47058823529412, raw_valuation_pct: 54.937, adjusted_valuation_pct: 68.584 });
    expect(data.latest).toMatchObject({ iso3: 'CHE', raw_valuation_pct: 48.433, adjusted_valuation_pct: 52.769, dollar_exchange_rate: 0.8036 });
    expect(data.history_count).toBe(data.history.length);
  });

  it.each([
    ['CHE', 'CHE'],
    ['chf', 'CHE'],
    ['perú', 'PER'],
    ['PERU', 'PER'],
    ['UK', 'GBR'],
    ['United Kingdom', 'GBR'],
    ['usa', 'USA'],
    ['United States', 'USA'],
    ['EU', 'EUZ'],
    ['eurozone', 'EUZ'],
    ['VEF', 'VEN'],
  ])('when country=%s, then %s comes back', async (country, iso3) => {
    const res = await getCountry({ country });
    expect(res.status).toBe(200);
    expect(res.body.data.iso3).toBe(iso3);
  });

  it.each(['jpy', 'JPY', 'gbp', 'cny'])('when base=%s, then history values are that base’s columns', async (base) => {
    const res = await getCountry({ country: 'USA', base });
    expect(res.body.data.base_currency).toBe(base.toUpperCase());
    expect(res.body.data.history).toHaveLength(4);
  });

  it('when base is a currency without published columns, then releases lacking the base country are left out', async () => {
    const res = await getCountry({ country: 'usa', base: 'chf' });
    expect(res.body.data.base_currency).toBe('CHF');
    expect(res.body.data.history.map((h: { date: string }) => h.date)).toEqual(['2000-04-01', '2025-01-01', '2026-01-01']);
    expect(res.body.data.latest.raw_valuation_pct).toBe(-32.63);
  });

  it('when the country is misspelt, then 404 NOT_FOUND suggests the near names', async () => {
    const res = await getCountry({ country: 'Swizerland' });
    expect(res.status).toBe(404);
    expect(res.body.error).toEqual({
      code: 'NOT_FOUND',
      details: { parameter: 'country', value: 'Swizerland', suggestions: ['Switzerland'] },
    });
    expect(res.body.message).toBe("no country matches 'Swizerland'; did you mean Switzerland?");
  });

  it('when the query is close to many names, then at most three are suggested', async () => {
    const res = await getCountry({ country: 'united' });
    expect(res.status).toBe(404);
    expect(res.body.error.details.suggestions).toEqual(['Britain', 'United Arab Emirates', 'United States']);
  });

  it('when nothing is close, then the 404 says which forms are accepted', async () => {
    const res = await getCountry({ country: 'Atlantis' });
    expect(res.status).toBe(404);
    expect(res.body.error.details.suggestions).toEqual([]);
    expect(res.body.message).toMatch(/use a country name, ISO3 code or currency code/);
  });

  it('when the computed base never shares a release with the country, then 404 names the base', async () => {
    const res = await getCountry({ country: 'Sri Lanka', base: 'chf' });
    expect(res.status).toBe(404);
    expect(res.body.error.details.parameter).toBe('base');
  });

  it.each([
    [{}, 'country', /^country is required and must be a country name, ISO3 code or currency code/],
    [{ country: '' }, 'country', /^country must be a country name/],
    [{ country: 'x'.repeat(101) }, 'country', /^country must be a country name/],
    [{ country: 'CHE', base: 'xyz' }, 'base', /^base must be one of/],
    [{ country: 'Atlantis', base: 'xyz' }, 'base', /^base must be one of/],
    [{ country: 'CHE', sort: 'name' }, 'sort', /^unknown parameter 'sort'; allowed parameters: country, base$/],
  ])('when the query is %j, then 400 names %s', async (query, parameter, message) => {
    const res = await getCountry(query);
    expect(res.status).toBe(400);
    expect(res.body.error.details.parameter).toBe(parameter);
    expect(res.body.message).toMatch(message);
  });
});
