import type { CountryRecord } from './country-record';
import { sortRecords } from './sort-records';

/** The most over- and under-valued records of a release. */
export interface Extremes {
  most_overvalued: CountryRecord[];
  most_undervalued: CountryRecord[];
}

/** Highest raw valuations downward and lowest upward, at most `limit` each. */
export function pickExtremes(records: readonly CountryRecord[], limit: number): Extremes {
  return {
    most_overvalued: sortRecords(records, 'valuation', 'desc').slice(0, limit),
    most_undervalued: sortRecords(records, 'valuation', 'asc').slice(0, limit),
  };
}
