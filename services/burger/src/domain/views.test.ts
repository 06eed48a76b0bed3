import { fixtureDataset } from '../../test/support/fixtures';
import { resolveBase } from './base-currency';
import type { BaseCurrency } from './base-currency';
import { countryView, extremesView, indexView } from './views';

const dataset = fixtureDataset();
const base = (code: string): BaseCurrency => {
  const resolved = resolveBase(dataset, code);
  if (!resolved) throw new Error(`no base ${code}`);
  return resolved;
};

describe('indexView', () => {
  it('when asked for the default, then every country of the latest release comes, highest raw valuation first', () => {
    const data = indexView(dataset, base('usd'), 'valuation', 'desc');
    expect(data).toMatchObject({ count: 11, release_date: '2026-01-01', base_currency: 'USD' });
    expect(data.countries).toHaveLength(11);
    expect(data.countries.map((c) => c.iso3).slice(0, 3)).toEqual(['CHE', 'GBR', 'EUZ']);
    const values = data.countries.map((c) => c.raw_valuation_pct);
    expect(values).toEqual([...values].sort((a, b) => b - a));
  });

  it('when the base is USD, then the US record is 0 / 0 / rate 1', () => {
    const usa = indexView(dataset, base('usd'), 'name', 'asc').countries.find((c) => c.iso3 === 'USA');
    expect(usa).toMatchObject({ raw_valuation_pct: 0, adjusted_valuation_pct: 0, dollar_exchange_rate: 1 });
  });

  it('when a country has no GDP-adjusted figure, then its record has no adjusted_valuation_pct key', () => {
    const countries = indexView(dataset, base('eur'), 'name', 'asc').countries;
    const without = countries.filter((c) => !('adjusted_valuation_pct' in c)).map((c) => c.iso3);
    expect(without).toEqual(['LBN', 'VEN']);
  });
});

describe('extremesView', () => {
  it('when asked for two per side against GBP, then both lists have two records and name the base', () => {
    const data = extremesView(dataset, base('GBP'), 2);
    expect(data.base_currency).toBe('GBP');
    expect(data.most_overvalued.map((c) => c.iso3)).toEqual(['CHE', 'GBR']);
    expect(data.most_undervalued.map((c) => [c.iso3, c.raw_valuation_pct])).toEqual([['JPN', -57.244], ['CHN', -48.278]]);
  });
});

describe('countryView', () => {
  it('when a country has several releases, then history ascends, counts itself and ends with latest', () => {
    const data = countryView(dataset, 'USA', base('usd'));
    expect(data?.history.map((h) => h.date)).toEqual(['2000-04-01', '2015-01-01', '2025-01-01', '2026-01-01']);
    expect(data?.history_count).toBe(4);
    expect(data?.latest).toMatchObject({ iso3: 'USA', local_price: 6.12, raw_valuation_pct: 0 });
  });

  it('when the country changed its name or currency, then the latest ones are shown and history spans both', () => {
    const uae = countryView(dataset, 'ARE', base('usd'));
    expect(uae).toMatchObject({ country: 'United Arab Emirates', currency: 'AED', history_count: 3 });
    const venezuela = countryView(dataset, 'VEN', base('usd'));
    expect(venezuela).toMatchObject({ currency: 'VES', history_count: 3 });
    expect(venezuela?.history[0]).toEqual({ date: '2015-01-01', local_price: 132, dollar_price: 2.53348713391591, raw_valuation_pct: -40.944 });
  });

  it('when the base is computed, then releases without the base country are left out of history', () => {
    const data = countryView(dataset, 'USA', base('chf'));
    expect(data?.history.map((h) => h.date)).toEqual(['2000-04-01', '2025-01-01', '2026-01-01']);
    expect(data?.history_count).toBe(3);
  });

  it('when the computed base never shares a release with the country, then there is no view', () => {
    expect(countryView(dataset, 'LKA', base('chf'))).toBeUndefined();
  });
});
