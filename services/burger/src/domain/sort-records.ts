import type { CountryRecord } from './country-record';

/** What `/v1/index` can sort by. */
export const SORT_KEYS = ['valuation', 'name', 'price'] as const;
/** One of {@link SORT_KEYS}. */
export type SortKey = (typeof SORT_KEYS)[number];
/** The directions `order` accepts. */
export const SORT_ORDERS = ['asc', 'desc'] as const;
/** One of {@link SORT_ORDERS}. */
export type SortOrder = (typeof SORT_ORDERS)[number];

/** The natural direction of each key: highest valuation and price first, names A→Z. */
export const DEFAULT_ORDER: Readonly<Record<SortKey, SortOrder>> = { valuation: 'desc', name: 'asc', price: 'desc' };

const byName = (a: CountryRecord, b: CountryRecord): number => a.country.localeCompare(b.country, 'en');

const COMPARE: Record<SortKey, (a: CountryRecord, b: CountryRecord) => number> = {
  valuation: (a, b) => a.raw_valuation_pct - b.raw_valuation_pct,
  name: byName,
  price: (a, b) => a.dollar_price - b.dollar_price,
};

/** A sorted copy; ties fall back to the name A→Z whatever the direction, so the order is stable. */
export function sortRecords(records: readonly CountryRecord[], sort: SortKey, order: SortOrder = DEFAULT_ORDER[sort]): CountryRecord[] {
  const sign = order === 'asc' ? 1 : -1;
  return [...records].sort((a, b) => sign * COMPARE[sort](a, b) || byName(a, b));
}
