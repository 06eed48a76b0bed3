import type { CountryRecord } from './country-record';
import { sortRecords } from './sort-records';
import type { SortKey, SortOrder } from './sort-records';

const record = (country: string, raw: number, price: number): CountryRecord => ({
  iso3: country.slice(0, 3).toUpperCase(),
  country,
  currency: 'XXX',
  local_price: price,
  dollar_price: price,
  raw_valuation_pct: raw,
  dollar_exchange_rate: 1,
});

const records = [record('Chile', 10, 5), record('Brazil', -5, 6), record('Åland', 10, 4), record('Denmark', 30, 6)];

describe('sortRecords', () => {
  it.each<[SortKey, SortOrder | undefined, string[]]>([
    ['valuation', undefined, ['Denmark', 'Åland', 'Chile', 'Brazil']],
    ['valuation', 'desc', ['Denmark', 'Åland', 'Chile', 'Brazil']],
    ['valuation', 'asc', ['Brazil', 'Åland', 'Chile', 'Denmark']],
    ['name', undefined, ['Åland', 'Brazil', 'Chile', 'Denmark']],
    ['name', 'desc', ['Denmark', 'Chile', 'Brazil', 'Åland']],
    ['price', undefined, ['Brazil', 'Denmark', 'Chile', 'Åland']],
    ['price', 'asc', ['Åland', 'Chile', 'Brazil', 'Denmark']],
  ])('when sorting by %s %s, then the order is %j (ties by name A→Z)', (sort, order, names) => {
    expect(sortRecords(records, sort, order).map((r) => r.country)).toEqual(names);
  });

  it('when sorting, then the input is left as it was', () => {
    const before = records.map((r) => r.country);
    sortRecords(records, 'name', 'desc');
    expect(records.map((r) => r.country)).toEqual(before);
  });
});
