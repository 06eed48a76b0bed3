import type { BaseCurrency } from './base-currency';
import type { CountryRecord, HistoryEntry } from './country-record';
import { toCountryRecord, toHistoryEntry } from './country-record';
import type { Dataset } from './dataset';
import { pickExtremes } from './extremes';
import type { Extremes } from './extremes';
import { sortRecords } from './sort-records';
import type { SortKey, SortOrder } from './sort-records';
import { SOURCE } from './source';

/** `data` of GET /v1/index. */
export interface IndexData {
  count: number;
  source: string;
  release_date: string;
  base_currency: string;
  countries: CountryRecord[];
}

/** `data` of GET /v1/country. */
export interface CountryData {
  iso3: string;
  country: string;
  currency: string;
  base_currency: string;
  latest: CountryRecord;
  history: HistoryEntry[];
  history_count: number;
  source: string;
}

/** `data` of GET /v1/extremes. */
export type ExtremesData = { source: string; release_date: string; base_currency: string } & Extremes;

/** The latest release valued against a base, in file order. */
export function latestRecords(dataset: Dataset, base: BaseCurrency): CountryRecord[] {
  return dataset.latest.flatMap((row) => {
    const valuation = base.valuate(row);
    return valuation ? [toCountryRecord(row, valuation)] : [];
  });
}

/** The index of the latest release against a base, sorted; `source` as describeSource words it. */
export function indexView(dataset: Dataset, base: BaseCurrency, sort: SortKey, order: SortOrder, source = SOURCE): IndexData {
  const countries = sortRecords(latestRecords(dataset, base), sort, order);
  return { count: countries.length, source, release_date: dataset.latestRelease, base_currency: base.code, countries };
}

/** The extremes of the latest release against a base. */
export function extremesView(dataset: Dataset, base: BaseCurrency, limit: number, source = SOURCE): ExtremesData {
  return { source, release_date: dataset.latestRelease, base_currency: base.code, ...pickExtremes(latestRecords(dataset, base), limit) };
}

/**
 * One country's history against a base, ascending; `latest` is its most recent release. Releases in
 * which a computed base has no row are left out, because there is nothing to value against.
 * Undefined when the country has no release the base can value.
 */
export function countryView(dataset: Dataset, iso3: string, base: BaseCurrency, source = SOURCE): CountryData | undefined {
  const valued = (dataset.historyByIso3.get(iso3) ?? []).flatMap((row) => {
    const valuation = base.valuate(row);
    return valuation ? [{ row, valuation }] : [];
  });
  const last = valued[valued.length - 1];
  if (!last) return undefined;
  const history = valued.map(({ row, valuation }) => toHistoryEntry(row, valuation));
  return {
    iso3,
    country: last.row.name,
    currency: last.row.currency,
    base_currency: base.code,
    latest: toCountryRecord(last.row, last.valuation),
    history,
    history_count: history.length,
    source,
  };
}
