import type { CountryRecord } from './country-record';
import { pickExtremes } from './extremes';

const record = (country: string, raw: number): CountryRecord => ({
  iso3: country.slice(0, 3).toUpperCase(),
  country,
  currency: 'XXX',
  local_price: 1,
  dollar_price: 1,
  raw_valuation_pct: raw,
  dollar_exchange_rate: 1,
});
const records = [record('A', 5), record('B', -40), record('C', 30), record('D', 0), record('E', -10)];
const names = (list: CountryRecord[]) => list.map((r) => r.country);

describe('pickExtremes', () => {
  it.each([
    [1, ['C'], ['B']],
    [2, ['C', 'A'], ['B', 'E']],
    [5, ['C', 'A', 'D', 'E', 'B'], ['B', 'E', 'D', 'A', 'C']],
    [25, ['C', 'A', 'D', 'E', 'B'], ['B', 'E', 'D', 'A', 'C']],
  ])('when the limit is %p, then over-valued run highest down (%j) and under-valued lowest up (%j)', (limit, over, under) => {
    const extremes = pickExtremes(records, limit);
    expect(names(extremes.most_overvalued)).toEqual(over);
    expect(names(extremes.most_undervalued)).toEqual(under);
  });
});
